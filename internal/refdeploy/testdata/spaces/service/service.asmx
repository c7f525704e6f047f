<%@ WebService Language="C#" Class="AtmSpaces.Service" %>
