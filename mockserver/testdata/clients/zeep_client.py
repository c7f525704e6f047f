"""Calls the atmkit mock through Python zeep, from the WSDL it serves.

Usage: python3 zeep_client.py WSDL_URL BINDING CALLS_JSON

BINDING is soap11 or soap12. CALLS_JSON is a JSON list of
{"op": name, "params": {name: value}}. Prints one JSON list with, per call,
{"op", "ok", "error", "xml"}: xml is the result node zeep parsed out of
<Op>Result, serialized again.
"""

import json
import sys

from lxml import etree
import zeep
from zeep.wsdl.bindings.soap import Soap11Binding, Soap12Binding


def pick_service(client, want):
    for service in client.wsdl.services.values():
        for port in service.ports.values():
            if type(port.binding) is want:
                return client.bind(service.name, port.name)
    raise SystemExit("no %s port in the WSDL" % want.__name__)


def result_xml(value):
    """Finds the result element in what zeep returned for an xs:any result."""
    if value is None:
        return None
    if isinstance(value, etree._Element):
        return etree.tostring(value, encoding="unicode")
    for key in ("_value_1",):
        try:
            inner = value[key]
        except (KeyError, TypeError, IndexError):
            continue
        if isinstance(inner, list):
            inner = inner[0] if inner else None
        return result_xml(inner)
    raise ValueError("unexpected result %r" % (value,))


def main():
    wsdl, binding, calls = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    want = {"soap11": Soap11Binding, "soap12": Soap12Binding}[binding]
    client = zeep.Client(wsdl)
    service = pick_service(client, want)
    out = []
    for c in calls:
        res = {"op": c["op"], "ok": False}
        try:
            value = getattr(service, c["op"])(**c["params"])
            res["xml"] = result_xml(value)
            res["ok"] = res["xml"] is not None
        except Exception as exc:  # reported to the Go test, which fails on it
            res["error"] = "%s: %s" % (type(exc).__name__, exc)
        out.append(res)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
