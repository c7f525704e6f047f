<?php
// Calls the atmkit mock through PHP's SoapClient with a timeout, to show how
// each injected fault reaches an app: the exception SoapClient throws.
//
// Usage: php fault_client.php WSDL_URL TIMEOUT_S CALLS_JSON
//
// CALLS_JSON is a JSON list of {"op": name, "params": {name: value}}, each
// called once over SOAP 1.1, with default_socket_timeout set to TIMEOUT_S
// seconds. Prints one JSON list with, per call, {"op", "ok", "ms", "class",
// "message", "code"}: the exception's class and message, and a SoapFault's
// faultcode. If the client cannot be made from the WSDL, the list holds one
// entry, op "WSDL".

if ($argc !== 4) {
    fwrite(STDERR, "usage: php fault_client.php WSDL_URL TIMEOUT_S CALLS_JSON\n");
    exit(2);
}
[, $wsdl, $timeout, $callsJSON] = $argv;
$calls = json_decode($callsJSON, true, 512, JSON_THROW_ON_ERROR);
ini_set('default_socket_timeout', $timeout);

// failure reports an exception as the fields above.
function failure(string $op, Throwable $e, float $start): array
{
    $res = ['op' => $op, 'ok' => false, 'ms' => (int) round((microtime(true) - $start) * 1000),
        'class' => get_class($e), 'message' => $e->getMessage()];
    if ($e instanceof SoapFault) {
        $res['code'] = $e->faultcode;
    }
    return $res;
}

$start = microtime(true);
try {
    $client = new SoapClient($wsdl, [
        'soap_version' => SOAP_1_1,
        'cache_wsdl' => WSDL_CACHE_NONE,
        'exceptions' => true,
    ]);
} catch (Throwable $e) {
    echo json_encode([failure('WSDL', $e, $start)], JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES | JSON_INVALID_UTF8_SUBSTITUTE), "\n";
    exit(0);
}

$out = [];
foreach ($calls as $c) {
    $start = microtime(true);
    try {
        // Document/literal wrapped: the parameters are one object.
        $value = $client->__soapCall($c['op'], [(object) $c['params']]);
        $out[] = ['op' => $c['op'], 'ok' => $value !== null, 'ms' => (int) round((microtime(true) - $start) * 1000)];
    } catch (Throwable $e) {
        $out[] = failure($c['op'], $e, $start);
    }
}
echo json_encode($out, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES | JSON_INVALID_UTF8_SUBSTITUTE), "\n";
