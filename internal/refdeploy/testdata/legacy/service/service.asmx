<%@ WebService Language="C#" Class="AtmLegacy.LegacyService" %>
