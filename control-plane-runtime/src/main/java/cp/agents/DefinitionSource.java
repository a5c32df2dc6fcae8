package cp.agents;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;

/**
 * One agent definition to read: a file of {@code CP_AGENTS_DIR}, or text registered in code by an
 * embedding application ({@code ControlPlaneWorker.builder().agent(...)}). Both pass the same
 * reader and checks.
 *
 * @param name how messages name it: the file name, or the name given in code; its ending
 *     ({@code .json}, else YAML) says how it is parsed
 * @param bytes its text, UTF-8
 * @param baseDir what {@code instructions_file} and a server's {@code cwd} are relative to
 * @param file the file it was read from, or null for a definition registered in code (the
 *     integrity gate re-reads a file; it has nothing to re-read for the other)
 */
public record DefinitionSource(String name, byte[] bytes, Path baseDir, Path file) {
  public DefinitionSource {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(bytes, "bytes");
    Objects.requireNonNull(baseDir, "baseDir");
    bytes = bytes.clone();
  }

  @Override
  public byte[] bytes() {
    return bytes.clone();
  }

  /** A definition file; its directory is the base of its relative paths. */
  public static DefinitionSource of(Path file) {
    Path abs = file.toAbsolutePath().normalize();
    try {
      return new DefinitionSource(abs.getFileName().toString(), Files.readAllBytes(abs), abs.getParent(), abs);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the agent definition " + abs + ": " + e.getMessage(), e);
    }
  }

  /**
   * A definition registered in code, as YAML or JSON text (JSON is YAML too); its relative paths
   * are relative to the working directory.
   *
   * @param name how messages name it, e.g. {@code weather (registered in code)}
   */
  public static DefinitionSource ofText(String name, String text) {
    Objects.requireNonNull(text, "text of agent definition " + name);
    return new DefinitionSource(name, text.getBytes(StandardCharsets.UTF_8), Path.of("").toAbsolutePath(), null);
  }

  /** Whether it is parsed as JSON (its name ends in {@code .json}); else as YAML. */
  boolean json() {
    return name.toLowerCase(Locale.ROOT).endsWith(".json");
  }
}
