<%@ WebService Language="C#" Class="AtmGrouped.ServiceV2" %>
