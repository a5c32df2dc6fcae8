package cp.tools.registry;

import cp.contracts.SchemaValidator;
import cp.tools.spi.ToolBinding;
import cp.tools.spi.ToolProvider;
import java.io.File;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.stream.Stream;

/**
 * The Java tools of {@code CP_TOOLS_PATH}: jars and class directories, found with
 * {@link ServiceLoader} through one class loader made for them.
 *
 * <p>Every entry's {@code META-INF/services/cp.tools.spi.ToolProvider} is read first: a provider
 * class listed by two entries is refused (a class loader would silently take the first).
 * Each provider's descriptors are checked (a valid JSON Schema describing an object); every
 * problem is collected and reported together, naming the jar and the tool. Providers visible
 * through the parent class loader (the worker's own classpath) are not this path's: they are
 * registered in code, not found here. Close it to release the jars.
 */
public final class JavaToolPath implements AutoCloseable {
  /** The variable naming the jars and directories to load tools from, separated like a classpath. */
  public static final String VARIABLE = "CP_TOOLS_PATH";
  static final String SERVICE_FILE = "META-INF/services/" + ToolProvider.class.getName();

  private final URLClassLoader loader;
  private final List<JavaTool> tools;

  private JavaToolPath(URLClassLoader loader, List<JavaTool> tools) {
    this.loader = loader;
    this.tools = List.copyOf(tools);
  }

  /** No tools (CP_TOOLS_PATH unset). */
  public static JavaToolPath empty() {
    return new JavaToolPath(null, List.of());
  }

  /**
   * Loads the tools of {@code path} ({@link File#pathSeparator}-separated jars and directories; a
   * directory without classes means every jar in it).
   *
   * @throws ToolRegistryException listing every problem: a missing entry, a provider listed twice,
   *     one that cannot be loaded or built, a bad descriptor or schema
   */
  public static JavaToolPath load(String path, ClassLoader parent, SchemaValidator validator) {
    if (path == null || path.isBlank()) {
      return empty();
    }
    List<String> problems = new ArrayList<>();
    List<Path> roots = roots(path, problems);
    Map<String, Path> providerRoot = providerClasses(roots, problems);
    URLClassLoader loader = new URLClassLoader("cp-tools-path", urls(roots), parent);
    List<JavaTool> tools = new ArrayList<>();
    Iterator<ServiceLoader.Provider<ToolProvider>> it = ServiceLoader.load(ToolProvider.class, loader).stream().iterator();
    while (true) {
      ServiceLoader.Provider<ToolProvider> provider;
      try {
        if (!it.hasNext()) {
          break;
        }
        provider = it.next();
      } catch (ServiceConfigurationError e) {
        problems.add(VARIABLE + ": " + oneLine(e) + rootOfMessage(e, providerRoot));
        continue;
      }
      if (provider.type().getClassLoader() != loader) {
        continue;
      }
      Path root = providerRoot.getOrDefault(provider.type().getName(), Path.of("?"));
      toolsOf(provider, root, validator, tools, problems);
    }
    if (!problems.isEmpty()) {
      closeQuietly(loader);
      throw new ToolRegistryException(problems);
    }
    return new JavaToolPath(loader, tools);
  }

  private static void toolsOf(ServiceLoader.Provider<ToolProvider> provider, Path root, SchemaValidator validator,
      List<JavaTool> out, List<String> problems) {
    String where = root + ": provider " + provider.type().getName();
    List<ToolBinding> bindings;
    try {
      bindings = provider.get().tools();
    } catch (ServiceConfigurationError | RuntimeException | LinkageError e) {
      problems.add(where + ": cannot list its tools: " + oneLine(e));
      return;
    }
    if (bindings == null || bindings.isEmpty()) {
      problems.add(where + ": offers no tools");
      return;
    }
    for (int i = 0; i < bindings.size(); i++) {
      ToolBinding b = bindings.get(i);
      if (b == null) {
        problems.add(where + ": tools()[" + i + "] is null");
        continue;
      }
      String name = b.descriptor().name();
      List<SchemaValidator.Violation> bad = validator.schemaProblems(b.descriptor().argumentsSchema());
      if (!bad.isEmpty()) {
        problems.add(root + ": tool " + name + ": its argument schema is not a valid JSON Schema: "
            + bad.stream().map(SchemaValidator.Violation::toString).reduce((a, c) -> a + "; " + c).orElse(""));
        continue;
      }
      out.add(new JavaTool(b, root.toString()));
    }
  }

  private static List<Path> roots(String path, List<String> problems) {
    List<Path> roots = new ArrayList<>();
    for (String raw : path.split(File.pathSeparator)) {
      if (raw.isBlank()) {
        continue;
      }
      Path p = Path.of(raw.trim()).toAbsolutePath().normalize();
      if (Files.isRegularFile(p) && p.toString().endsWith(".jar")) {
        roots.add(p);
      } else if (Files.isDirectory(p)) {
        if (Files.exists(p.resolve(SERVICE_FILE))) {
          roots.add(p);
        } else {
          roots.addAll(jarsIn(p, problems));
        }
      } else {
        problems.add(VARIABLE + ": " + p + (Files.exists(p) ? " is neither a jar nor a directory" : " does not exist"));
      }
    }
    return roots;
  }

  private static List<Path> jarsIn(Path dir, List<String> problems) {
    try (Stream<Path> files = Files.list(dir)) {
      List<Path> jars = files.filter(f -> f.toString().endsWith(".jar") && Files.isRegularFile(f)).sorted().toList();
      if (jars.isEmpty()) {
        problems.add(VARIABLE + ": " + dir + " holds neither " + SERVICE_FILE + " nor any *.jar");
      }
      return jars;
    } catch (IOException e) {
      problems.add(VARIABLE + ": cannot list " + dir + ": " + e.getMessage());
      return List.of();
    }
  }

  /** Provider class name → the one root listing it; a name listed by two roots is a problem. */
  private static Map<String, Path> providerClasses(List<Path> roots, List<String> problems) {
    Map<String, Path> byClass = new LinkedHashMap<>();
    for (Path root : roots) {
      List<String> names;
      try {
        names = ServiceFile.providerNames(root);
      } catch (IOException e) {
        problems.add(root + ": cannot read " + SERVICE_FILE + ": " + e.getMessage());
        continue;
      }
      if (names.isEmpty()) {
        problems.add(root + ": has no " + SERVICE_FILE + " (a tool jar lists its ToolProvider classes there)");
      }
      for (String name : names) {
        Path other = byClass.putIfAbsent(name, root);
        if (other != null && !other.equals(root)) {
          problems.add(root + ": provider " + name + " is also listed by " + other
              + "; only one would be loaded: remove one of the two from " + VARIABLE);
        }
      }
    }
    return byClass;
  }

  private static String rootOfMessage(Throwable e, Map<String, Path> providerRoot) {
    String message = String.valueOf(e.getMessage());
    return providerRoot.entrySet().stream().filter(en -> message.contains(en.getKey()))
        .map(en -> " (in " + en.getValue() + ")").findFirst().orElse("");
  }

  private static URL[] urls(List<Path> roots) {
    URL[] urls = new URL[roots.size()];
    for (int i = 0; i < urls.length; i++) {
      try {
        urls[i] = roots.get(i).toUri().toURL();
      } catch (MalformedURLException e) {
        throw new IllegalArgumentException(roots.get(i) + " cannot be a class path entry", e);
      }
    }
    return urls;
  }

  private static String oneLine(Throwable e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    Throwable cause = e.getCause();
    if (cause != null && cause.getMessage() != null && !m.contains(cause.getMessage())) {
      m = m + ": " + cause.getMessage();
    }
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }

  private static void closeQuietly(URLClassLoader loader) {
    try {
      loader.close();
    } catch (IOException ignored) {
      // nothing was handed out; the jars are released when the loader is collected
    }
  }

  public List<JavaTool> tools() {
    return tools;
  }

  @Override
  public void close() throws IOException {
    if (loader != null) {
      loader.close();
    }
  }
}
