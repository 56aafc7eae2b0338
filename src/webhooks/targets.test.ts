import { describe, expect, it } from "vitest";
import { isPrivateTarget } from "./targets";

describe("isPrivateTarget", () => {
  it.each([
    "http://127.0.0.1/",
    "http://127.8.9.10:8080/",
    "http://0.0.0.0/",
    "http://10.0.0.1/",
    "http://100.64.1.1/",
    "http://169.254.169.254/",
    "http://172.16.0.1/",
    "http://172.31.255.255/",
    "http://192.168.0.1/",
    "http://224.0.0.1/",
    "http://255.255.255.255/",
    "http://0x7f000001/",
    "http://017700000001/",
    "http://localhost:8787/",
    "http://LOCALHOST./",
    "http://api.localhost/",
    "http://printer.local/",
    "http://db.internal/",
    "http://router/",
    "http://[::1]/",
    "http://[::]/",
    "http://[fe80::1]/",
    "http://[fc00::1]/",
    "http://[::ffff:10.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "http://[64:ff9b::a00:1]/",
    "http://[::ffff:8.8.8.8]/",
    "http://192.0.2.1/",
    "http://198.51.100.1/",
    "http://203.0.113.1/",
    "http://[2001:db8::1]/",
    "http://[100::1]/",
    "http://home.home.arpa/",
    "not a url",
  ])("refuses %s", (url) => {
    expect(isPrivateTarget(url)).toBe(true);
  });

  it.each([
    "https://hooks.example.com/build",
    "http://93.184.216.34/",
    "http://172.32.0.1/",
    "http://100.128.0.1/",
    "http://[2606:4700::1111]/",
    "http://8.8.8.8/",
    "https://api.netlify.com/build_hooks/abc",
  ])("accepts %s", (url) => {
    expect(isPrivateTarget(url)).toBe(false);
  });
});
