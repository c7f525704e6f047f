<%@ WebService Language="C#" Class="AtmSpaces.ServiceV2" %>
