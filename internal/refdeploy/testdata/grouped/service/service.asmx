<%@ WebService Language="C#" Class="AtmGrouped.Service" %>
