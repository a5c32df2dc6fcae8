package cp.contracts;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Where the catalog's files come from: the classpath (the built product) or a plain directory.
 *
 * <p>Names are relative with {@code /} separators ({@code contracts/PRC-CLASSIFY-001.json})
 * whatever the source, so error messages and installed-artifact records read the same from a
 * build directory, from inside the shaded jar, and from a test's temporary directory.
 */
public interface ResourceSource {

  /**
   * The regular files directly inside {@code directory} (not recursive), sorted by name; empty
   * when the directory does not exist.
   *
   * @throws java.io.UncheckedIOException when the directory exists but cannot be read
   */
  List<ResourceFile> list(String directory);

  /** One file by relative name, if it exists. */
  Optional<ResourceFile> read(String name);

  /** Where the files come from, for messages: {@code classpath} or {@code directory /x/y}. */
  String description();

  /** The classpath of the loader that loaded this interface (the product's own resources). */
  static ResourceSource classpath() {
    return classpath(ResourceSource.class.getClassLoader());
  }

  /** The resources visible to {@code loader}: {@code file:} directories and {@code jar:} archives. */
  static ResourceSource classpath(ClassLoader loader) {
    return new ClasspathSource(loader);
  }

  /**
   * {@code base} with {@code overlay}'s files added: an overlay file replaces the base file of the
   * same name ({@code CP_RESOURCES_DIR} over the built-in resources).
   */
  static ResourceSource layered(ResourceSource base, ResourceSource overlay) {
    return new LayeredSource(base, overlay);
  }

  /** A plain directory, e.g. a test fixture or an operator's override directory. */
  static ResourceSource directory(Path root) {
    return new DirectorySource(root);
  }
}
