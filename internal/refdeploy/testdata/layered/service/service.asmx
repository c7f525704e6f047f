<%@ WebService Language="C#" Class="AtmLayered.Service" %>
