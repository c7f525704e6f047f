<%@ WebService Language="C#" Class="AtmNodes.ServiceV2" %>
