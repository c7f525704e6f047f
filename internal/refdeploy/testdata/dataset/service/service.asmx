<%@ WebService Language="C#" Class="AtmSets.DataSetService" %>
