<%@ WebService Language="C#" Class="AtmMembers.Service" %>
