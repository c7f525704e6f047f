<%@ WebService Language="C#" Class="AtmSets.Service" %>
