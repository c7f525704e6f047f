<%@ WebService Language="C#" Class="AtmLayered.ServiceV2" %>
