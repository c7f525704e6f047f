<%@ WebService Language="C#" Class="AtmColumns.ServiceV2" %>
