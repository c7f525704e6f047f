// Calls the atmkit mock through node-soap, from the WSDL it serves.
//
// Usage: node soap_client.js WSDL_URL BINDING CALLS_JSON
//
// BINDING is soap11 or soap12. CALLS_JSON is a JSON list of
// {"op": name, "params": {name: value}}. Prints one JSON list with, per call,
// {"op", "ok", "error", "status", "result"}: result is the object node-soap
// parsed out of <Op>Response.
'use strict';

const soap = require('soap');

async function main() {
  const [wsdl, binding, callsJSON] = process.argv.slice(2);
  const calls = JSON.parse(callsJSON);
  const options = { forceSoap12Headers: binding === 'soap12' };
  const client = await soap.createClientAsync(wsdl, options);
  const desc = client.describe();
  const service = Object.keys(desc)[0];
  const port = Object.keys(desc[service]).find((p) =>
    binding === 'soap12' ? p.endsWith('Soap12') : p.endsWith('Soap'));
  if (!port) {
    throw new Error(`no ${binding} port in the WSDL (ports: ${Object.keys(desc[service])})`);
  }
  let status;
  client.on('response', (body, response) => { status = response && response.status; });
  const out = [];
  for (const c of calls) {
    const res = { op: c.op, ok: false };
    status = undefined;
    try {
      const method = client[service][port][c.op];
      if (typeof method !== 'function') {
        throw new Error(`no operation ${c.op} on port ${port}`);
      }
      const result = await new Promise((resolve, reject) => {
        method.call(client, c.params, (err, value) => (err ? reject(err) : resolve(value)));
      });
      res.result = result;
      res.ok = result != null;
    } catch (err) {
      res.error = String(err && err.message ? err.message : err);
    }
    res.status = status;
    out.push(res);
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((err) => {
  process.stderr.write(`node-soap client: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
