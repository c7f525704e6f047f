<%@ WebService Language="C#" Class="AtmRef.AtmServiceV2" %>
