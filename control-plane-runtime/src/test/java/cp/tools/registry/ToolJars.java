package cp.tools.registry;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Builds real tool jars and class directories for CP_TOOLS_PATH tests: compiles Java sources
 * against the test's own class path (the SPI and Jackson) and writes the service file.
 */
public final class ToolJars {
  private ToolJars() {}

  /** Compiles {@code sources} (class name → source) into {@code dir} and lists {@code providers} in its service file. */
  public static Path classes(Path dir, Map<String, String> sources, List<String> providers) throws IOException {
    Path src = Files.createDirectories(dir.resolveSibling(dir.getFileName() + "-src"));
    List<String> files = new ArrayList<>();
    for (var e : sources.entrySet()) {
      Path f = src.resolve(e.getKey().replace('.', '/') + ".java");
      Files.createDirectories(f.getParent());
      Files.writeString(f, e.getValue());
      files.add(f.toString());
    }
    Files.createDirectories(dir);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    StringWriter out = new StringWriter();
    List<String> args = new ArrayList<>(List.of("-d", dir.toString(), "-cp", System.getProperty("java.class.path"),
        "-proc:none"));
    args.addAll(files);
    int rc = javac.run(null, new java.io.PrintStream(OutputStream.nullOutputStream()), null, args.toArray(String[]::new));
    if (rc != 0) {
      throw new IllegalStateException("javac failed (" + rc + ") for " + sources.keySet() + out);
    }
    Path service = dir.resolve(JavaToolPath.SERVICE_FILE);
    Files.createDirectories(service.getParent());
    Files.writeString(service, "# tools\n" + String.join("\n", providers) + "\n");
    return dir;
  }

  /** Like {@link #classes}, packed into {@code jar}. */
  public static Path jar(Path jar, Map<String, String> sources, List<String> providers) throws IOException {
    Path dir = classes(jar.resolveSibling(jar.getFileName() + "-classes"), sources, providers);
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
        Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.filter(Files::isRegularFile).sorted().toList()) {
        out.putNextEntry(new JarEntry(dir.relativize(p).toString().replace(File.separatorChar, '/')));
        out.write(Files.readAllBytes(p));
        out.closeEntry();
      }
    }
    return jar;
  }

  /** Source of a provider {@code pkg.cls} offering tools given as Java expressions of type ToolBinding. */
  public static String provider(String pkg, String cls, String... bindings) {
    return "package " + pkg + ";\n"
        + "import cp.tools.spi.*;\nimport java.util.List;\n"
        + "public class " + cls + " implements ToolProvider {\n"
        + "  public record CityArgs(@ToolParam(\"City\") String city) {}\n"
        + "  public List<ToolBinding> tools() {\n"
        + "    return List.of(" + String.join(",\n", bindings) + ");\n"
        + "  }\n}\n";
  }

  /** A typed tool named {@code name} answering "&lt;name&gt;: &lt;city&gt;". */
  public static String cityTool(String name) {
    return "ToolBinding.of(\"" + name + "\", \"Answers for a city.\", CityArgs.class, "
        + "(a, ctx) -> ToolCallResult.text(\"" + name + ": \" + a.city() + \" key \" + ctx.idempotencyKey()))";
  }
}
