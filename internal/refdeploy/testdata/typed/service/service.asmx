<%@ WebService Language="C#" Class="AtmRef.AtmService" %>
