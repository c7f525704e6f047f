<?php
// Calls the atmkit mock through PHP's built-in SoapClient (the soap
// extension), from the WSDL it serves.
//
// Usage: php soap_client.php WSDL_URL BINDING CALLS_JSON
//
// BINDING is soap11 or soap12. CALLS_JSON is a JSON list of
// {"op": name, "params": {name: value}}. Prints one JSON list with, per call,
// {"op", "ok", "error", "xml"}: xml is the result node SoapClient left in
// <Op>Result's 'any' string (how it hands back an xs:any result).

if ($argc !== 4) {
    fwrite(STDERR, "usage: php soap_client.php WSDL_URL BINDING CALLS_JSON\n");
    exit(2);
}
[, $wsdl, $binding, $callsJSON] = $argv;
$versions = ['soap11' => SOAP_1_1, 'soap12' => SOAP_1_2];
if (!isset($versions[$binding])) {
    fwrite(STDERR, "unknown binding $binding (soap11 or soap12)\n");
    exit(2);
}
$calls = json_decode($callsJSON, true, 512, JSON_THROW_ON_ERROR);

$client = new SoapClient($wsdl, [
    'soap_version' => $versions[$binding],
    'cache_wsdl' => WSDL_CACHE_NONE,
    'exceptions' => true,
    'trace' => true,
]);

// resultXML finds the result node's XML in what SoapClient returned.
function resultXML($value, string $op): ?string
{
    $field = $op . 'Result';
    if (!is_object($value) || !isset($value->$field)) {
        return null;
    }
    $result = $value->$field;
    if (is_object($result) && isset($result->any) && is_string($result->any)) {
        return $result->any;
    }
    throw new UnexpectedValueException("unexpected $field: " . var_export($result, true));
}

$out = [];
foreach ($calls as $c) {
    $res = ['op' => $c['op'], 'ok' => false];
    try {
        // Document/literal wrapped: the parameters are one object.
        $value = $client->__soapCall($c['op'], [(object) $c['params']]);
        $res['xml'] = resultXML($value, $c['op']);
        $res['ok'] = $res['xml'] !== null;
        if (!$res['ok']) {
            $res['error'] = 'no ' . $c['op'] . 'Result in ' . var_export($value, true);
        }
    } catch (Throwable $e) { // reported to the Go test, which fails on it
        $res['error'] = get_class($e) . ': ' . $e->getMessage();
    }
    $out[] = $res;
}
echo json_encode($out, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES), "\n";
