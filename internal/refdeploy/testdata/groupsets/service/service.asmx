<%@ WebService Language="C#" Class="AtmGroupSets.Service" %>
