<%@ WebService Language="C#" Class="AtmColumns.Service" %>
