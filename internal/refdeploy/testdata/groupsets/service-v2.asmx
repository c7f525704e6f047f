<%@ WebService Language="C#" Class="AtmGroupSets.ServiceV2" %>
