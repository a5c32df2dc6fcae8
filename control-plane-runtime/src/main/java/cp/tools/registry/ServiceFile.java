package cp.tools.registry;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/** Reads the provider class names a jar or class directory lists in its service file. */
final class ServiceFile {
  private ServiceFile() {}

  /** The class names listed (comments and blank lines dropped); empty when there is no service file. */
  static List<String> providerNames(Path root) throws IOException {
    String text;
    if (Files.isDirectory(root)) {
      Path f = root.resolve(JavaToolPath.SERVICE_FILE);
      if (!Files.isRegularFile(f)) {
        return List.of();
      }
      text = Files.readString(f, StandardCharsets.UTF_8);
    } else {
      try (ZipFile zip = new ZipFile(root.toFile())) {
        ZipEntry e = zip.getEntry(JavaToolPath.SERVICE_FILE);
        if (e == null) {
          return List.of();
        }
        text = new String(zip.getInputStream(e).readAllBytes(), StandardCharsets.UTF_8);
      }
    }
    List<String> names = new ArrayList<>();
    for (String line : text.split("\n")) {
      int hash = line.indexOf('#');
      String name = (hash < 0 ? line : line.substring(0, hash)).trim();
      if (!name.isEmpty()) {
        names.add(name);
      }
    }
    return names;
  }
}
