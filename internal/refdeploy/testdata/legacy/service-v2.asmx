<%@ WebService Language="C#" Class="AtmLegacy.LegacyServiceV2" %>
