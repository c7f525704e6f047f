<%@ WebService Language="C#" Class="AtmAttrs.AttrServiceV2" %>
