// Calls the atmkit mock through the JAX-WS client JaxwsClient uses (wsimport's
// package atmservice) with a timeout, to show how each injected fault reaches
// an app: the exception the port's method throws.
//
// Usage: java -cp CLASSES:jaxws-rt.jar JaxwsFaultClient WSDL_URL TIMEOUT_MS CALLS_JSON
//
// CALLS_JSON is a JSON list of {"op": name, "params": {name: value}}, each
// called once over the SOAP 1.1 port, with JAX-WS RI's request and connect
// timeouts (com.sun.xml.ws.request.timeout, .connect.timeout) at TIMEOUT_MS.
// Prints one JSON list with, per call, {"op", "ok", "ms", "class",
// "message", "causes"}: the exception's class and message, and those of its
// causes ("class: message" each, outermost first). If the service cannot
// be made from the WSDL, the list holds one entry, op "WSDL".

import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.xml.ws.BindingProvider;

import atmservice.AtmService;
import atmservice.AtmServiceSoap;

@SuppressWarnings("unchecked")
public class JaxwsFaultClient {
    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: java JaxwsFaultClient WSDL_URL TIMEOUT_MS CALLS_JSON");
            System.exit(2);
        }
        int timeout = Integer.parseInt(args[1]);
        List<Object> calls = (List<Object>) new JaxwsClient.Json(args[2]).value();
        StringBuilder out = new StringBuilder("[");
        long start = System.nanoTime();
        AtmServiceSoap port;
        try {
            port = new AtmService(new URL(args[0])).getAtmServiceSoap();
        } catch (Exception e) {
            JaxwsClient.Json.write(out, failure("WSDL", e, start));
            System.out.println(out.append(']'));
            return;
        }
        Map<String, Object> ctx = ((BindingProvider) port).getRequestContext();
        ctx.put("com.sun.xml.ws.request.timeout", timeout);
        ctx.put("com.sun.xml.ws.connect.timeout", timeout);
        for (Object o : calls) {
            Map<String, Object> c = (Map<String, Object>) o;
            String op = (String) c.get("op");
            Map<String, Object> res;
            start = System.nanoTime();
            try {
                JaxwsClient.call(port, op, (Map<String, Object>) c.get("params"));
                res = new LinkedHashMap<>();
                res.put("op", op);
                res.put("ok", true);
                res.put("ms", (System.nanoTime() - start) / 1000000);
            } catch (InvocationTargetException e) {
                res = failure(op, e.getCause(), start);
            } catch (Exception e) {
                res = failure(op, e, start);
            }
            if (out.length() > 1) {
                out.append(',');
            }
            JaxwsClient.Json.write(out, res);
        }
        System.out.println(out.append(']'));
    }

    // failure reports an exception as the fields above.
    static Map<String, Object> failure(String op, Throwable e, long start) {
        Map<String, Object> res = new LinkedHashMap<>();
        res.put("op", op);
        res.put("ok", false);
        res.put("ms", (System.nanoTime() - start) / 1000000);
        res.put("class", e.getClass().getName());
        res.put("message", String.valueOf(e.getMessage()));
        List<String> causes = new ArrayList<>();
        for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            causes.add(c.getClass().getName() + ": " + c.getMessage());
        }
        res.put("causes", causes);
        return res;
    }
}
