<%@ WebService Language="C#" Class="AtmSets.DataSetServiceV2" %>
