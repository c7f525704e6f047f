<%@ WebService Language="C#" Class="AtmAttrs.AttrService" %>
