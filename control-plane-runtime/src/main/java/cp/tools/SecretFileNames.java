package cp.tools;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The names of files that hold secrets: env files, private keys, key stores, certificates,
 * credential files and the directories of SSH, GnuPG and the cloud CLIs. {@link PathPolicy}
 * refuses them for every agent, whatever its globs allow: a misconfigured read glob must not be
 * enough to send a key to a model.
 *
 * <p>Matching ignores letter case ({@code .ENV}, {@code SERVER.KEY}): several file systems do,
 * and people name files in any case. A rule without {@code /} is one path segment and matches any
 * segment of the path, so a directory name ({@code .ssh}, {@code .aws}) covers everything below
 * it; a rule with {@code /} matches the last segments of the path ({@code .docker/config.json}).
 * The list is here, in one place, as data; it errs on the side of refusing (a public certificate
 * or an env template is refused too, and the message says why).
 */
public final class SecretFileNames {
  private static final String ENV = "env file";
  private static final String PRIVATE_KEY = "private key";
  private static final String KEY_STORE = "key store";
  private static final String CERTIFICATE = "certificate";
  private static final String CREDENTIALS = "credentials";
  private static final String CLOUD = "cloud credentials";

  /** One secret name: a glob (lower case, see {@link PathGlob}) and what such a file holds. */
  public record Rule(String glob, String kind) {
    public Rule {
      Objects.requireNonNull(glob, "glob");
      Objects.requireNonNull(kind, "kind");
      if (!glob.equals(glob.toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException("secret name glob '" + glob + "' must be lower case: names are "
            + "lower-cased before matching");
      }
    }
  }

  /** Every secret name, in the order they are tried (the first match names the kind). */
  public static final List<Rule> RULES = List.of(
      // env files: .env, .env.local, .env.production, prod.env, direnv's .envrc
      new Rule(".env", ENV), new Rule(".env.*", ENV), new Rule("*.env", ENV), new Rule(".envrc", ENV),
      // private keys: PEM and raw keys, OpenSSH key pairs (public halves too: same name stem), PuTTY, Apple .p8
      new Rule("*.key", PRIVATE_KEY), new Rule("*.pem", PRIVATE_KEY), new Rule("id_rsa*", PRIVATE_KEY),
      new Rule("id_dsa*", PRIVATE_KEY), new Rule("id_ecdsa*", PRIVATE_KEY), new Rule("id_ed25519*", PRIVATE_KEY),
      new Rule("*.ppk", PRIVATE_KEY), new Rule("*.p8", PRIVATE_KEY),
      // key stores and password databases
      new Rule("*.p12", KEY_STORE), new Rule("*.pfx", KEY_STORE), new Rule("*.jks", KEY_STORE),
      new Rule("*.keystore", KEY_STORE), new Rule("*.bks", KEY_STORE), new Rule("*.kdbx", KEY_STORE),
      // certificates (often stored next to their keys, sometimes with them)
      new Rule("*.crt", CERTIFICATE), new Rule("*.cer", CERTIFICATE), new Rule("*.der", CERTIFICATE),
      new Rule("*.p7b", CERTIFICATE),
      // directories that hold keys and cloud credentials: everything below them
      new Rule(".ssh", "SSH directory"), new Rule(".gnupg", "GnuPG directory"), new Rule(".aws", CLOUD),
      new Rule(".azure", CLOUD), new Rule("gcloud", CLOUD),
      // cloud credential files
      new Rule("service-account*.json", CLOUD), new Rule("client_secret*.json", CLOUD), new Rule(".boto", CLOUD),
      new Rule(".s3cfg", CLOUD),
      // credential and token files of common tools
      new Rule("credentials", CREDENTIALS), new Rule("credentials.*", CREDENTIALS),
      new Rule("*.credentials", CREDENTIALS), new Rule("*credentials*.json", CREDENTIALS),
      new Rule(".npmrc", CREDENTIALS), new Rule(".pypirc", CREDENTIALS), new Rule(".netrc", CREDENTIALS),
      new Rule("_netrc", CREDENTIALS), new Rule(".pgpass", CREDENTIALS), new Rule(".git-credentials", CREDENTIALS),
      new Rule(".htpasswd", CREDENTIALS), new Rule(".vault-token", CREDENTIALS), new Rule(".dockercfg", CREDENTIALS),
      new Rule(".docker/config.json", CREDENTIALS), new Rule(".kube/config", CREDENTIALS),
      new Rule("kubeconfig", CREDENTIALS), new Rule("secrets.*", CREDENTIALS), new Rule("*.tfvars", CREDENTIALS),
      new Rule("*.tfstate", CREDENTIALS), new Rule("*.tfstate.*", CREDENTIALS));

  /**
   * Why a path is a secret: the rule, and the part of the path it matched, as the path spells it.
   */
  public record Match(Rule rule, String matched) {}

  private record Compiled(Rule rule, PathGlob glob, boolean segment) {}

  private static final List<Compiled> COMPILED = RULES.stream()
      .map(r -> r.glob().contains("/")
          ? new Compiled(r, PathGlob.of("**/" + r.glob()), false)
          : new Compiled(r, PathGlob.of(r.glob()), true))
      .toList();

  private SecretFileNames() {}

  /**
   * The first rule a relative path ({@code /}-separated) matches, trying each segment from the
   * root down so a secret directory is named before the files in it; empty when it looks harmless.
   */
  public static Optional<Match> match(String relativePath) {
    if (relativePath == null || relativePath.isEmpty()) {
      return Optional.empty();
    }
    String[] segments = relativePath.split("/");
    for (String segment : segments) {
      String lower = segment.toLowerCase(Locale.ROOT);
      for (Compiled c : COMPILED) {
        if (c.segment() && c.glob().matches(lower)) {
          return Optional.of(new Match(c.rule(), segment));
        }
      }
    }
    String lowerPath = relativePath.toLowerCase(Locale.ROOT);
    for (Compiled c : COMPILED) {
      if (!c.segment() && c.glob().matches(lowerPath)) {
        int parts = c.rule().glob().split("/").length;
        String tail = String.join("/", List.of(segments).subList(Math.max(0, segments.length - parts),
            segments.length));
        return Optional.of(new Match(c.rule(), tail));
      }
    }
    return Optional.empty();
  }
}
