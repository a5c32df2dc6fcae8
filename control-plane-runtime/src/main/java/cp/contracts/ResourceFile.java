package cp.contracts;

import cp.model.Json;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One file of a {@link ResourceSource}: its relative name, its bytes and their SHA-256.
 *
 * @param name the path relative to the source root, with {@code /} separators, e.g.
 *     {@code contracts/PRC-CLASSIFY-001.json}; this is the name error messages use
 * @param sha256 lowercase hex SHA-256 of the bytes
 */
public record ResourceFile(String name, byte[] bytes, String sha256) {

  public ResourceFile {
    Objects.requireNonNull(name, "name");
    bytes = Objects.requireNonNull(bytes, "bytes").clone();
    sha256 = Json.sha256(bytes);
  }

  public ResourceFile(String name, byte[] bytes) {
    this(name, bytes, null);
  }

  @Override
  public byte[] bytes() {
    return bytes.clone();
  }

  /** The content as UTF-8 text. */
  public String text() {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /** The file name without its directory, e.g. {@code PRC-CLASSIFY-001.json}. */
  public String fileName() {
    int slash = name.lastIndexOf('/');
    return slash < 0 ? name : name.substring(slash + 1);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ResourceFile other && name.equals(other.name) && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return 31 * name.hashCode() + Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return name + " (" + bytes.length + " bytes, sha256 " + sha256 + ")";
  }
}
