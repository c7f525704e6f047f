// Calls the atmkit mock through node-soap with a timeout, to show how each
// injected fault reaches an app: the error node-soap hands the callback.
//
// Usage: node fault_client.js WSDL_URL TIMEOUT_MS CALLS_JSON
//
// CALLS_JSON is a JSON list of {"op": name, "params": {name: value}}, each
// called once over SOAP 1.1 with the request option timeout: TIMEOUT_MS.
// Prints one JSON list with, per call, {"op", "ok", "ms", "class",
// "message", "code", "status", "fault", "faultCode", "causes"}: the error's
// constructor name (Object for the plain object node-soap hands over when
// it cannot parse an answer), message and code (err.code), the HTTP status
// of the answer it carries (err.response.status), and the SOAP fault
// node-soap parsed (err.root.Envelope.Body.Fault), or the one it made up
// for an answer it could not parse (err.Fault: faultstring "Invalid XML",
// and the parser's error in causes). If the client cannot be made from the
// WSDL, the list holds one entry, op "WSDL".
'use strict';

const soap = require('soap');

// describe reports an error as the fields above.
function describe(res, err) {
  if (err instanceof Error) {
    res.class = err.constructor.name;
    res.message = err.message;
  } else {
    res.class = err && err.constructor ? err.constructor.name : typeof err;
    res.message = '';
  }
  if (err && err.code !== undefined) res.code = String(err.code);
  if (err && err.response) res.status = err.response.status;
  const root = err && err.root;
  let fault;
  if (root && root.Envelope && root.Envelope.Body && root.Envelope.Body.Fault) {
    fault = root.Envelope.Body.Fault;
  } else if (err && err.Fault) {
    fault = err.Fault;
  }
  if (fault) {
    res.fault = String(fault.faultstring);
    res.faultCode = String(fault.faultcode);
    if (typeof fault.detail === 'string' && fault.detail) res.causes = [fault.detail];
  }
}

async function main() {
  const [wsdl, timeoutMS, callsJSON] = process.argv.slice(2);
  const calls = JSON.parse(callsJSON);
  const timeout = Number(timeoutMS);
  const out = [];
  let client;
  const start = Date.now();
  try {
    client = await soap.createClientAsync(wsdl, { wsdl_options: { timeout } });
  } catch (err) {
    const res = { op: 'WSDL', ok: false, ms: Date.now() - start };
    describe(res, err);
    process.stdout.write(JSON.stringify([res]));
    return;
  }
  const desc = client.describe();
  const service = Object.keys(desc)[0];
  const port = Object.keys(desc[service]).find((p) => p.endsWith('Soap'));
  for (const c of calls) {
    const res = { op: c.op, ok: false };
    const t0 = Date.now();
    try {
      const result = await new Promise((resolve, reject) => {
        client[service][port][c.op].call(client, c.params,
          (err, value) => (err ? reject(err) : resolve(value)), { timeout });
      });
      res.ok = result != null;
    } catch (err) {
      describe(res, err);
    }
    res.ms = Date.now() - t0;
    out.push(res);
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((err) => {
  process.stderr.write(`node-soap fault client: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
