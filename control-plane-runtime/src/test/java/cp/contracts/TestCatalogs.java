package cp.contracts;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Catalogs for tests outside this package that need an attention template of their own. */
public final class TestCatalogs {
  private TestCatalogs() {}

  /**
   * The shipped catalog copied under {@code dir} plus {@code templates} as extra files in
   * {@code attention/}, loaded and validated like an operator's override directory.
   */
  public static Catalog shippedPlus(Path dir, ObjectNode... templates) {
    ResourceSource shipped = ResourceSource.classpath();
    try {
      for (String d : List.of("contracts", "prompts", "agents", "attention")) {
        for (ResourceFile f : shipped.list(d)) {
          Path p = dir.resolve(f.name());
          Files.createDirectories(p.getParent());
          Files.write(p, f.bytes());
        }
      }
      for (ObjectNode t : templates) {
        Path p = dir.resolve("attention/" + t.get("template_id").asText() + ".json");
        Files.writeString(p, Json.pretty(t), StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Catalog.load(ResourceSource.directory(dir));
  }

  /**
   * A catalog holding only {@code template}, built without the load-time checks.
   *
   * <p>The loader refuses a template whose ledger_query stages outnumber {@code max_queries} or
   * read a tier no tier_select stage selected, so the assembler's own guards against both can
   * only be reached with a template that skipped those checks; this is that template's catalog.
   */
  public static Catalog unchecked(ObjectNode template) {
    AttentionTemplate t = Json.convert(template, AttentionTemplate.class);
    ResourceFile file = new ResourceFile("attention/" + t.templateId() + ".json",
        Json.write(template).getBytes(StandardCharsets.UTF_8));
    return new Catalog("unchecked test catalog", new SchemaValidator(), Map.of(), Map.of(), Map.of(),
        Map.of(t.templateId(), new Loaded<>(t, file, t.version())), List.of());
  }
}
