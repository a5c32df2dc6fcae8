package cp.contracts;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A {@link ResourceSource} over a class loader's resources.
 *
 * <p>A class loader can open a resource by name but cannot list a directory, so listing
 * resolves the directory's URL(s) and reads them by protocol: a {@code file:} URL (a
 * {@code target/classes} directory) is walked, a {@code jar:} URL (the shaded jar) is opened
 * as a zip file system. When the same name exists under several classpath roots, the first
 * root wins, as it does for classes. Jar listing needs the jar to hold directory entries,
 * which the Maven jar and shade plugins write.
 */
final class ClasspathSource implements ResourceSource {
  private final ClassLoader loader;

  ClasspathSource(ClassLoader loader) {
    this.loader = Objects.requireNonNull(loader, "loader");
  }

  @Override
  public List<ResourceFile> list(String directory) {
    String dir = trimSlashes(directory);
    Map<String, ResourceFile> byName = new TreeMap<>();
    try {
      for (URL url : Collections.list(loader.getResources(dir))) {
        for (ResourceFile f : listUrl(url, dir)) {
          byName.putIfAbsent(f.name(), f);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list classpath directory " + dir + "/: " + e.getMessage(), e);
    }
    return List.copyOf(byName.values());
  }

  @Override
  public Optional<ResourceFile> read(String name) {
    URL url = loader.getResource(trimSlashes(name));
    if (url == null) {
      return Optional.empty();
    }
    try {
      URLConnection conn = url.openConnection();
      conn.setUseCaches(false); // do not keep a jar open (and locked on Windows) after the read
      try (InputStream in = conn.getInputStream()) {
        return Optional.of(new ResourceFile(trimSlashes(name), in.readAllBytes()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read classpath resource " + name + " from " + url + ": " + e.getMessage(), e);
    }
  }

  @Override
  public String description() {
    return "classpath";
  }

  private static List<ResourceFile> listUrl(URL url, String dir) throws IOException {
    switch (url.getProtocol()) {
      case "file":
        return listDirectory(toPath(url), dir);
      case "jar":
        return listJar(url, dir);
      default:
        throw new IOException("cannot list " + url + ": unsupported protocol '" + url.getProtocol()
            + "' (the classpath must be directories or plain jars)");
    }
  }

  private static List<ResourceFile> listJar(URL url, String dir) throws IOException {
    String spec = url.toString();
    int bang = spec.indexOf("!/");
    if (bang < 0 || spec.indexOf("!/", bang + 2) >= 0) {
      throw new IOException("cannot list " + url + ": not a plain jar (nested jars are not supported)");
    }
    Path jar = toPath(URI.create(spec.substring("jar:".length(), bang)));
    try (FileSystem zip = FileSystems.newFileSystem(jar)) {
      return listDirectory(zip.getPath("/" + dir), dir);
    }
  }

  /** Regular files directly in {@code path}, named {@code dir/<file name>}. */
  private static List<ResourceFile> listDirectory(Path path, String dir) throws IOException {
    if (!Files.isDirectory(path)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(path)) {
      List<Path> regular = files.filter(Files::isRegularFile).toList();
      List<ResourceFile> out = new ArrayList<>();
      for (Path p : regular) {
        String fileName = p.getFileName().toString().replace("/", "");
        out.add(new ResourceFile(dir + "/" + fileName, Files.readAllBytes(p)));
      }
      return out;
    }
  }

  private static Path toPath(URL url) throws IOException {
    try {
      return toPath(url.toURI());
    } catch (URISyntaxException e) {
      throw new IOException("cannot turn " + url + " into a path: " + e.getMessage(), e);
    }
  }

  private static Path toPath(URI uri) {
    return Path.of(uri);
  }

  private static String trimSlashes(String name) {
    String n = Objects.requireNonNull(name, "name");
    while (n.startsWith("/")) {
      n = n.substring(1);
    }
    while (n.endsWith("/")) {
      n = n.substring(0, n.length() - 1);
    }
    return n;
  }
}
