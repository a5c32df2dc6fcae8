package cp.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 23: CP_TENANTS_FILE, its exact keys, and the default entry for tenants it does not list. */
class TenantCapsTest {
  @TempDir Path dir;

  @Test
  void theIssuesExample_listedTenantsTheirOwn_othersTheDefault() throws Exception {
    Path f = Files.writeString(dir.resolve("tenants.json"), """
        {"tenants": {"acme": {"daily_usd": 5.0, "monthly_usd": 100.0}}, "default": {"daily_usd": 1.0}}""");
    TenantCaps caps = TenantCaps.fromEnv(Map.of(TenantCaps.VARIABLE, f.toString()));
    assertEquals(new TenantCaps.Caps(Optional.of(5.0), Optional.of(100.0)), caps.of("acme").orElseThrow());
    assertEquals(new TenantCaps.Caps(Optional.of(1.0), Optional.empty()), caps.of("beta").orElseThrow());
    assertEquals(Optional.empty(), TenantCaps.fromEnv(Map.of()).of("acme"), "no file, no cap");
  }

  @Test
  void noDefault_unlistedTenantsHaveNoCap() throws Exception {
    Path f = Files.writeString(dir.resolve("t.json"), "{\"tenants\": {\"acme\": {\"monthly_usd\": 10}}}");
    TenantCaps caps = TenantCaps.fromEnv(Map.of(TenantCaps.VARIABLE, f.toString()));
    assertEquals(Optional.empty(), caps.of("beta"));
    assertEquals(Optional.of(10.0), caps.of("acme").orElseThrow().monthlyUsd());
  }

  @Test
  void wrongKeysAndValues_areErrorsNamingTheVariableAndTheKey() throws Exception {
    for (String bad : new String[] {"{\"tenant\": {}}", "{\"tenants\": {\"acme\": {\"daily\": 1}}}",
        "{\"tenants\": {\"acme\": {\"daily_usd\": -1}}}", "{\"tenants\": {\"a b\": {\"daily_usd\": 1}}}",
        "{\"default\": {\"daily_usd\": \"1\"}}", "[1]"}) {
      Path f = Files.writeString(dir.resolve("bad.json"), bad);
      ProviderConfigException e = assertThrows(ProviderConfigException.class,
          () -> TenantCaps.fromEnv(Map.of(TenantCaps.VARIABLE, f.toString())), bad);
      assertEquals(TenantCaps.VARIABLE, e.variable());
      assertTrue(e.getMessage().startsWith(TenantCaps.VARIABLE + "="), e.getMessage());
    }
  }

  /** Like CP_PRICES_FILE: YAML when the name ends in .yaml or .yml (JSON is YAML too, but not the other way). */
  @Test
  void aYamlFile_isReadAsYaml() throws Exception {
    Path f = Files.writeString(dir.resolve("tenants.yaml"), """
        tenants:
          acme: {daily_usd: 5.0, monthly_usd: 100.0}
        default:
          daily_usd: 1.0
        """);
    TenantCaps caps = TenantCaps.fromEnv(Map.of(TenantCaps.VARIABLE, f.toString()));
    assertEquals(new TenantCaps.Caps(Optional.of(5.0), Optional.of(100.0)), caps.of("acme").orElseThrow());
    assertEquals(new TenantCaps.Caps(Optional.of(1.0), Optional.empty()), caps.of("beta").orElseThrow());
  }

  /** A file that is not there, or not a file, says so: not "cannot be read as JSON: /path". */
  @Test
  void aMissingFileOrADirectory_isNamedAsSuch() {
    ProviderConfigException missing = assertThrows(ProviderConfigException.class,
        () -> TenantCaps.fromEnv(Map.of(TenantCaps.VARIABLE, dir.resolve("absent.json").toString())));
    assertEquals(TenantCaps.VARIABLE + "=" + dir.resolve("absent.json") + ": no such file", missing.getMessage());
    ProviderConfigException directory = assertThrows(ProviderConfigException.class,
        () -> TenantCaps.fromEnv(Map.of(TenantCaps.VARIABLE, dir.toString())));
    assertEquals(TenantCaps.VARIABLE + "=" + dir + ": is a directory, not a file", directory.getMessage());
  }

  @Test
  void aFileThatIsNotJson_saysWhereItStopped_withoutEchoingTheParsersInternals() throws Exception {
    Path f = Files.writeString(dir.resolve("t.json"), "tenants: [");
    ProviderConfigException e = assertThrows(ProviderConfigException.class,
        () -> TenantCaps.fromEnv(Map.of(TenantCaps.VARIABLE, f.toString())));
    assertTrue(e.getMessage().startsWith(TenantCaps.VARIABLE + "=" + f + " is not valid JSON: "), e.getMessage());
    assertTrue(e.getMessage().endsWith("(line 1, column 1)"), e.getMessage());
    assertTrue(!e.getMessage().contains("StreamReadFeature") && !e.getMessage().contains("REDACTED"), e.getMessage());
  }
}
