package cp;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import io.temporal.activity.ActivityInterface;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The build's guard on the architecture (README "Development"): workflow code stays deterministic,
 * and no package imports one above it. Every rule here fails {@code mvn verify} with the offending
 * class, member and line. Exceptions are explicit, named and say why; there is no frozen baseline.
 *
 * <p>Layers, lowest first: {@code model} (records crossing Temporal, id rules, failure codes) &larr;
 * {@code faults}, {@code observability} &larr; {@code ledger}, {@code contracts} &larr; {@code gateway}, {@code tools} &larr;
 * {@code activities} &larr; {@code workflows} (deterministic: model and the activity interfaces only)
 * &larr; {@code worker}, {@code client} (model and the workflow interfaces only; neither uses the
 * other) &larr; {@code bench} and {@code cli} (neither uses the other: the product jar carries no
 * benchmark). {@link #USED_BY} is the table.
 */
class ArchitectureTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importMainClasses() {
    // Test code also reaches this module as the other modules' test jars (*-tests.jar): not product code.
    classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(location -> !location.contains("-tests.jar")).importPackages("cp");
    // Guard against a vacuous pass: the rules must see the workflow code they are about.
    assertTrue(classes.contain("cp.workflows.TurnWorkflowImpl") && classes.contain("cp.model.FailureCode"));
    assertTrue(!classes.contain("cp.ledger.TestPostgres"), "test code was imported as product code");
  }

  /** What workflow code may not touch: I/O, the network, and every layer with side effects. */
  static final String[] NOT_FOR_WORKFLOWS = {
      "java.io..", "java.nio.file..", "java.nio.channels..", "java.net..", "java.sql..", "okhttp3..",
      "java.util.concurrent..", "cp.gateway..", "cp.ledger..", "cp.tools..", "cp.contracts..", "cp.faults..",
      "cp.worker..", "cp.client..", "cp.bench..", "cp.cli..", "cp.observability..", "io.opentelemetry..",
      "io.micrometer.."};

  @Test
  void workflowsDoNoIoAndUseNoSideEffectingLayer() {
    noClasses().that().resideInAPackage("cp.workflows..")
        .should().dependOnClassesThat().resideInAnyPackage(NOT_FOR_WORKFLOWS)
        .because("workflow code is replayed and must be deterministic: I/O, ledgers, the gateway, tools and"
            + " threads belong in activities (README \"Replay safety\")")
        .check(classes);
  }

  @Test
  void workflowsUseActivitiesOnlyThroughTheirInterfaces() {
    noClasses().that().resideInAPackage("cp.workflows..")
        .should().dependOnClassesThat(describe("are activity implementations or helpers (not an @ActivityInterface)",
            (JavaClass c) -> c.getPackageName().startsWith("cp.activities")
                && !c.isAnnotatedWith(ActivityInterface.class)))
        .because("a workflow schedules activities through their @ActivityInterface stubs; anything else in"
            + " cp.activities runs I/O")
        .check(classes);
  }

  @Test
  void workflowsReadNoClockRandomnessOrEnvironmentAndStartNoThreads() {
    noClasses().that().resideInAPackage("cp.workflows..")
        .should().callMethod(System.class, "currentTimeMillis")
        .orShould().callMethod(System.class, "nanoTime")
        .orShould().callMethod(System.class, "getenv", String.class)
        .orShould().callMethod(System.class, "getenv")
        .orShould().callMethod(System.class, "getProperty", String.class)
        .orShould().callMethod(Math.class, "random")
        .orShould().callMethod(Thread.class, "sleep", long.class)
        .orShould().callMethod(java.util.UUID.class, "randomUUID")
        .orShould().callMethod(java.time.Instant.class, "now")
        .orShould().callMethod(java.time.LocalDateTime.class, "now")
        .orShould().callMethod(java.time.LocalDate.class, "now")
        .orShould().callMethod(java.time.ZonedDateTime.class, "now")
        .orShould().callMethod(java.time.OffsetDateTime.class, "now")
        .orShould().dependOnClassesThat().areAssignableTo(java.time.Clock.class)
        .orShould().dependOnClassesThat().areAssignableTo(java.util.Random.class)
        .orShould().dependOnClassesThat().areAssignableTo(Thread.class)
        .because("a replayed workflow must see the same values: use Workflow.currentTimeMillis(),"
            + " Workflow.randomUUID(), Workflow.newRandom(), Workflow.sleep() and Async instead")
        .check(classes);
  }

  @Test
  void workflowsHaveNoMutableStaticState() {
    fields().that().areDeclaredInClassesThat().resideInAPackage("cp.workflows..").and().areStatic()
        .should().beFinal()
        .because("static state is shared by every workflow the worker caches and survives no replay")
        .check(classes);
  }

  /**
   * Issue 12: the benchmark's seam is an injected ActivityContextSource, not a check on every
   * activity call: no activity class keeps per-thread state for a caller to set (the old
   * DirectCalls ThreadLocal, read by every activity). (ThreadLocals elsewhere are caches, e.g.
   * ChainKey's Mac, or the gateway's in-flight calls.)
   */
  @Test
  void theActivitiesHotPathHoldsNoThreadLocalAndNoBenchmarkHook() {
    noClasses().that().resideInAPackage("cp.activities..")
        .should().dependOnClassesThat().areAssignableTo(ThreadLocal.class)
        .because("a benchmark or test reaches the activities through ActivityContextSource, not thread state")
        .check(classes);
    assertTrue(!classes.contain("cp.activities.DirectCalls"), "cp.activities.DirectCalls is back");
  }

  /**
   * Issue 21: the process's telemetry and fault hook are passed in as collaborators, the ledger
   * stores included (through their options' {@code LedgerHooks}); no process-wide facade is left.
   */
  @Test
  void noStaticTelemetryOrFaultFacade() {
    assertTrue(java.util.Arrays.stream(cp.observability.Telemetry.class.getDeclaredMethods())
        .noneMatch(m -> m.getName().equals("current") || m.getName().equals("installForLedger")),
        "Telemetry.current()/installForLedger are back");
    assertTrue(java.util.Arrays.stream(cp.faults.FaultPoints.class.getDeclaredMethods())
        .noneMatch(m -> java.util.Set.of("at", "armed", "pause", "install", "configure").contains(m.getName())),
        "a static FaultPoints facade is back");
  }

  /**
   * Issue 21: no static mutable state in product code. A static field is final, and holds no
   * mutable container, thread-local, counter, pool or array another class could write, except the
   * few below, each a process resource rather than state a test or a caller could set. Immutable
   * collections ({@code List.of}, {@code Map.copyOf}) are declared through their interfaces and pass.
   */
  static final Map<String, String> STATIC_RESOURCES = Map.of(
      "cp.ledger.OpenLedgers.OPEN", "one Ledger per file per JVM: the OS file lock is per process, so two"
          + " instances of one file in a JVM would not exclude each other",
      "cp.ledger.GroupCommit$Flusher.THREAD", "the process's one daemon thread that forces batched ledgers to disk",
      "cp.activities.Heartbeats.TICKER", "the process's one daemon thread that heartbeats in-flight calls",
      "cp.gateway.http.InFlightCalls.CURRENT", "the calling thread's own in-flight HTTP calls (set and cleared by"
          + " the activity's heartbeat scope on that thread, never by another)");

  static final List<Class<?>> MUTABLE_HOLDERS = List.of(java.util.HashMap.class, java.util.ArrayList.class,
      java.util.HashSet.class, java.util.LinkedHashMap.class, java.util.TreeMap.class,
      java.util.concurrent.ConcurrentHashMap.class, ThreadLocal.class,
      java.util.concurrent.atomic.AtomicLong.class, java.util.concurrent.atomic.AtomicInteger.class,
      java.util.concurrent.atomic.AtomicReference.class, java.util.concurrent.atomic.AtomicBoolean.class,
      java.util.concurrent.ExecutorService.class);

  @Test
  void productCodeHasNoStaticMutableState() {
    List<String> found = new ArrayList<>();
    for (JavaClass c : classes) {
      for (var field : c.getFields()) {
        if (!field.getModifiers().contains(com.tngtech.archunit.core.domain.JavaModifier.STATIC)
            || field.getName().startsWith("$") || c.isEnum() && field.getRawType().equals(c)) {
          continue;
        }
        String name = c.getName() + "." + field.getName();
        boolean isFinal = field.getModifiers().contains(com.tngtech.archunit.core.domain.JavaModifier.FINAL);
        boolean mutableType = MUTABLE_HOLDERS.stream().anyMatch(t -> field.getRawType().isAssignableTo(t))
            || field.getRawType().isArray() && !field.getModifiers().contains(com.tngtech.archunit.core.domain.JavaModifier.PRIVATE);
        if ((!isFinal || mutableType) && !STATIC_RESOURCES.containsKey(name)) {
          found.add(name + (isFinal ? " (" + field.getRawType().getSimpleName() + ")" : " (not final)"));
        }
      }
    }
    assertEquals(List.of(), found, "static mutable state in product code: pass it in (issue 21), or add it to"
        + " STATIC_RESOURCES with the reason it is a process resource");
    for (String allowed : STATIC_RESOURCES.keySet()) {
      String owner = allowed.substring(0, allowed.lastIndexOf('.'));
      assertTrue(classes.contain(owner) && classes.get(owner).tryGetField(allowed.substring(owner.length() + 1))
          .isPresent(), "STATIC_RESOURCES names a field that is gone: " + allowed);
    }
  }

  @Test
  void activitiesDoNotImportWorkflows() {
    noClasses().that().resideInAPackage("cp.activities..")
        .should().dependOnClassesThat().resideInAPackage("cp.workflows..")
        .because("the id rules and failure codes both need live in cp.model; activities run below the workflows")
        .check(classes);
  }

  /** Issue 14: tracing reaches the client as an interceptor the CLI passes in; the client library stays free of it. */
  @Test
  void theClientDependsOnNoTelemetryLibrary() {
    noClasses().that().resideInAPackage("cp.client..")
        .should().dependOnClassesThat().resideInAnyPackage("io.opentelemetry..", "io.opentracing..", "io.micrometer..",
            "io.temporal.opentracing..", "cp.observability..")
        .because("a published client must not drag OpenTelemetry or Micrometer into its users' builds")
        .check(classes);
  }

  @Test
  void theClientUsesTheModelAndTheWorkflowInterfacesOnly() {
    noClasses().that().resideInAPackage("cp.client..")
        .should().dependOnClassesThat(describe("are a workflow implementation",
            (JavaClass c) -> c.getPackageName().startsWith("cp.workflows") && c.getSimpleName().endsWith("Impl")))
        .because("a published client talks to the plane through workflow interfaces, names and records")
        .check(classes);
  }

  /**
   * Each layer (a package under {@code cp}) and the layers that may use it; {@code model} is usable
   * by all. Read as: nobody below a layer imports it.
   */
  static final Map<String, List<String>> USED_BY = new LinkedHashMap<>();

  static {
    USED_BY.put("model", List.of("*"));
    USED_BY.put("faults", List.of("ledger", "contracts", "gateway", "tools", "activities", "worker", "eval", "bench",
        "cli"));
    // Issue 14: the process's telemetry, read where the work happens (ledger appends, the gateway, activities).
    USED_BY.put("observability", List.of("ledger", "contracts", "gateway", "tools", "activities", "worker", "eval",
        "bench", "cli"));
    USED_BY.put("ledger", List.of("contracts", "gateway", "tools", "activities", "worker", "eval", "bench", "cli"));
    USED_BY.put("contracts", List.of("tools", "agents", "activities", "worker", "eval", "bench", "cli"));
    // Issue 22: a defined agent names its model, which the gateway's ProviderFactory resolves at worker start.
    USED_BY.put("gateway", List.of("agents", "activities", "worker", "eval", "bench", "cli"));
    USED_BY.put("tools", List.of("agents", "activities", "worker", "eval", "bench", "cli"));
    // Issue 22: agent definitions, assembled with the tools and MCP servers at worker start.
    USED_BY.put("agents", List.of("worker", "eval", "bench", "cli"));
    USED_BY.put("activities", List.of("workflows", "worker", "eval", "bench", "cli"));
    USED_BY.put("workflows", List.of("worker", "client", "eval", "bench", "cli"));
    USED_BY.put("worker", List.of("eval", "bench", "cli"));
    // Issue 25: evals run a suite on their own worker (cp.eval, above the worker), driven by the CLI.
    USED_BY.put("eval", List.of("bench", "cli"));
    USED_BY.put("client", List.of("bench", "cli"));
    // Issue 21: the product (cli) ships without the benchmark, which has its own jar.
    USED_BY.put("bench", List.of());
    USED_BY.put("cli", List.of());
  }

  @Test
  void noLayerUsesOneAboveIt() {
    LayeredArchitecture layers = layeredArchitecture().consideringOnlyDependenciesInLayers();
    for (String layer : USED_BY.keySet()) {
      layers = layers.layer(layer).definedBy("cp." + layer + "..");
    }
    for (Map.Entry<String, List<String>> e : USED_BY.entrySet()) {
      if (e.getValue().isEmpty()) {
        layers = layers.whereLayer(e.getKey()).mayNotBeAccessedByAnyLayer();
      } else if (!e.getValue().contains("*")) {
        layers = layers.whereLayer(e.getKey()).mayOnlyBeAccessedByLayers(e.getValue().toArray(String[]::new));
      }
    }
    layers.check(classes);
  }

  /**
   * The same rules over the source's import lines, which catch what the compiled classes cannot show:
   * an import nothing uses yet, and a constant the compiler copied into the class (ContractIds.CLASSIFY).
   */
  @Test
  void noSourceFileImportsWhatItsLayerMayNotUse() throws IOException {
    Pattern importLine = Pattern.compile("^import\\s+(?:static\\s+)?([\\w.]+)(?:\\.\\*)?\\s*;", Pattern.MULTILINE);
    List<String> problems = new ArrayList<>();
    for (Path root : MODULE_SOURCES) {
      checkImports(root, importLine, problems);
    }
    assertEquals(List.of(), problems);
  }

  /** Every module's main sources, seen from this module's directory. */
  static final List<Path> MODULE_SOURCES = List.of("control-plane-api", "control-plane-client",
      "control-plane-runtime", "control-plane-bench", "control-plane-cli").stream()
      .map(m -> Path.of("..", m, "src", "main", "java", "cp")).toList();

  private static void checkImports(Path root, Pattern importLine, List<String> problems) throws IOException {
    assertTrue(Files.isDirectory(root), "no module sources at " + root.toAbsolutePath());
    List<Path> files;
    try (Stream<Path> walk = Files.walk(root)) {
      files = walk.filter(f -> f.toString().endsWith(".java")).sorted().toList();
    }
    for (Path file : files) {
      String layer = root.relativize(file).getName(0).toString();
      String owner = "cp." + root.relativize(file).toString().replace(File.separatorChar, '.')
          .replaceAll("\\.java$", "");
      Matcher m = importLine.matcher(Files.readString(file));
      while (m.find()) {
        String imported = m.group(1);
        importProblem(layer, owner, imported).ifPresent(p -> problems.add(file + ": import " + imported + ": " + p));
      }
    }
  }

  private static Optional<String> importProblem(String layer, String owner, String imported) {
    if (layer.equals("workflows")) {
      for (String banned : NOT_FOR_WORKFLOWS) {
        if (imported.startsWith(banned.substring(0, banned.length() - 1))) {
          return Optional.of("workflow code is deterministic: no " + banned.substring(0, banned.length() - 2));
        }
      }
      if (imported.startsWith("cp.activities.") && !isActivityInterface(imported)) {
        return Optional.of("workflows use activities only through an @ActivityInterface");
      }
    }
    if (layer.equals("client") && imported.startsWith("cp.workflows.") && imported.endsWith("Impl")) {
      return Optional.of("the client uses workflow interfaces, never an implementation");
    }
    if (!imported.startsWith("cp.")) {
      return Optional.empty();
    }
    String target = imported.split("\\.")[1];
    List<String> users = USED_BY.get(target);
    if (target.equals(layer) || users == null || users.contains("*") || users.contains(layer)) {
      return Optional.empty();
    }
    return Optional.of("cp." + layer + " may not use cp." + target + " (only " + users + " may)");
  }

  private static boolean isActivityInterface(String className) {
    try {
      return Class.forName(className).isAnnotationPresent(ActivityInterface.class);
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
}
