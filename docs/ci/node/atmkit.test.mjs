// The ATM service mock in a container for the tests of a Node app:
// node --test, Testcontainers for Node.
import { before, after, test } from "node:test";
import assert from "node:assert/strict";
import { GenericContainer, Wait } from "testcontainers";

let atmkit;
let serviceUrl;

before(async () => {
  atmkit = await new GenericContainer("atmkit/atmkit:latest")
    .withEnvironment({ ATMKIT_KEYS: "ci-key" })
    .withExposedPorts(8080)
    .withWaitStrategy(Wait.forHealthCheck()) // the image's own: atmkit health
    .start();
  serviceUrl = `http://${atmkit.getHost()}:${atmkit.getMappedPort(8080)}/service/service.asmx`;
});

after(async () => {
  await atmkit?.stop();
});

test("the app lists the provinces", async () => {
  // Point your app's client at serviceUrl with the key ci-key; here, a call by hand.
  const res = await fetch(`${serviceUrl}/ReturnProvinces?strAtmServiceKey=ci-key`);
  assert.equal(res.status, 200);
  assert.match(await res.text(), /<province>/);
});
