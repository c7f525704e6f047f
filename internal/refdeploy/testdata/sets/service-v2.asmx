<%@ WebService Language="C#" Class="AtmSets.ServiceV2" %>
