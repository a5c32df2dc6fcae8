package cp.tools;

import static cp.tools.TestPlane.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.contracts.Permissions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 11: secret files by other names ({@code .ENV}, {@code prod.env}, {@code SERVER.KEY},
 * {@code .aws/credentials}, {@code credentials.json}) were read and sent to the model. Every
 * common secret name is refused, in any letter case, whatever the agent's globs allow.
 */
class SecretFileNamesTest {
  private static final String SECRET_CONTENT = "AKIA-TOPSECRET-do-not-leak";

  @TempDir Path tmp;
  private TestPlane plane;
  /** An agent that may read and write everything: only the secret-name rule can refuse. */
  private PathPolicy everything;

  @BeforeEach
  void setUp() {
    plane = TestPlane.at(tmp.resolve("plane"));
    everything = new PathPolicy("TEST", plane.root, new Permissions(List.of("**"), List.of("**"), List.of()));
  }

  @AfterEach
  void tearDown() {
    plane.close();
  }

  @ParameterizedTest(name = "{0} ({1})")
  @CsvSource({
      // the names the issue found read
      ".ENV, env file",
      "prod.env, env file",
      "SERVER.KEY, private key",
      ".aws/credentials, cloud credentials",
      "credentials.json, credentials",
      // env files
      ".env, env file",
      "HO1/.env, env file",
      ".env.local, env file",
      "HO1/.Env.Production, env file",
      "config/staging.ENV, env file",
      ".envrc, env file",
      // private keys
      "HOT/tls/server.pem, private key",
      "id_rsa, private key",
      "HO1/.hidden/ID_RSA.pub, private key",
      "id_dsa, private key",
      "id_ecdsa, private key",
      "id_ed25519, private key",
      "keys/deploy.ppk, private key",
      "AuthKey_ABC123.p8, private key",
      // key stores
      "store.p12, key store",
      "cert.PFX, key store",
      "app.jks, key store",
      "release.keystore, key store",
      "vault.kdbx, key store",
      // certificates
      "tls/server.crt, certificate",
      "tls/ca.cer, certificate",
      "tls/ca.der, certificate",
      // credential files and directories
      ".npmrc, credentials",
      ".pypirc, credentials",
      ".netrc, credentials",
      "_netrc, credentials",
      ".pgpass, credentials",
      ".git-credentials, credentials",
      ".htpasswd, credentials",
      ".vault-token, credentials",
      "CREDENTIALS, credentials",
      "creds/db.credentials, credentials",
      "secrets.yaml, credentials",
      "config/Secrets.YML, credentials",
      "secrets.json, credentials",
      "prod.tfvars, credentials",
      "infra/terraform.tfstate, credentials",
      "infra/terraform.tfstate.backup, credentials",
      ".ssh/config, SSH directory",
      "home/.SSH/known_hosts, SSH directory",
      ".gnupg/pubring.kbx, GnuPG directory",
      ".AWS/config, cloud credentials",
      ".azure/accessTokens.json, cloud credentials",
      ".config/gcloud/application_default_credentials.json, cloud credentials",
      "gcloud/legacy_credentials/me/adc.json, cloud credentials",
      "service-account.json, cloud credentials",
      "keys/service-account-prod.json, cloud credentials",
      "client_secret_1234.apps.googleusercontent.com.json, cloud credentials",
      ".docker/config.json, credentials",
      ".kube/config, credentials",
      "kubeconfig, credentials",
      ".boto, cloud credentials",
      ".s3cfg, cloud credentials",
  })
  void secretName_isRefusedWhateverTheGlobsSay_andNamesWhy(String path, String kind) {
    plane.write(path, SECRET_CONTENT);

    for (Runnable call : List.<Runnable>of(() -> everything.resolveForRead(path),
        () -> everything.resolveForWrite(path))) {
      PathRefusedException e = assertThrows(PathRefusedException.class, call::run, path);
      assertEquals(PathRefusal.SECRET, e.refusal(), e.getMessage());
      assertTrue(e.getMessage().contains("'" + path + "'"), e.getMessage());
      assertTrue(e.getMessage().contains("looks like a secret file (" + kind), e.getMessage());
      assertTrue(e.getMessage().contains("secret files are never read"), e.getMessage());
      assertFalse(e.getMessage().contains(SECRET_CONTENT), e.getMessage());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {".ENV", "prod.env", "SERVER.KEY", ".aws/credentials", "credentials.json",
      "HO1/.ssh/id_ed25519"})
  void secretName_readThroughTheDispatcher_isARefusedResultWithoutTheContent(String path) {
    plane.write(path, SECRET_CONTENT);
    ToolDispatcher all = new ToolDispatcher(plane.catalog, plane.ledgers, List.of(new ReadFileTool()));

    // ADMIN reads HOT/**, so put each name there too: a glob that allows the path must not be enough.
    plane.write("HOT/" + path, SECRET_CONTENT);
    ToolResult r = all.execute("ADMIN", "SES-00000001", "read_file", args("{\"path\":\"HOT/" + path + "\"}"),
        List.of("read_file"));

    assertEquals(ToolResult.REFUSED, r.status(), r.content());
    assertEquals(PathRefusal.SECRET.code(), r.errorCode());
    assertFalse(r.content().contains(SECRET_CONTENT), r.content());
  }

  @ParameterizedTest
  @ValueSource(strings = {"README.md", "HO1/notes.txt", "HO1/environment.md", "HO1/keys.md", "HO1/monkey.txt",
      "HO1/env/notes.txt", "HO1/keyboard.key.md", "HO1/pem-format.txt", "HO1/certificates.md",
      "HO1/secret-santa-notes.txt", "HO1/config.json", "HO1/docker/config.json", "HO1/kube/config"})
  void ordinaryNames_thatMerelyResembleSecrets_areReadable(String path) throws IOException {
    plane.write(path, "ordinary");

    assertEquals(plane.root.resolve(path).toRealPath(), everything.resolveForRead(path));
  }
}
