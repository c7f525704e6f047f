<%@ WebService Language="C#" Class="AtmNodes.Service" %>
