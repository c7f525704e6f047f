<%@ WebService Language="C#" Class="AtmMembers.ServiceV2" %>
