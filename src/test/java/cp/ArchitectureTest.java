package cp;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import io.temporal.activity.ActivityInterface;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The build's guard on the architecture (README "Development"): workflow code stays deterministic,
 * and no package imports one above it. Every rule here fails {@code mvn verify} with the offending
 * class, member and line. Exceptions are explicit, named and say why; there is no frozen baseline.
 *
 * <p>Layers, lowest first: {@code model} (records crossing Temporal, id rules, failure codes) &larr;
 * {@code faults} &larr; {@code ledger}, {@code contracts} &larr; {@code gateway}, {@code tools} &larr;
 * {@code activities} &larr; {@code workflows} (deterministic: model and the activity interfaces only)
 * &larr; {@code worker} &larr; {@code client} (model and the workflow interfaces only) &larr;
 * {@code bench} &larr; {@code cli}.
 */
class ArchitectureTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importMainClasses() {
    classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("cp");
  }

  /** What workflow code may not touch: I/O, the network, and every layer with side effects. */
  static final String[] NOT_FOR_WORKFLOWS = {
      "java.io..", "java.nio.file..", "java.nio.channels..", "java.net..", "java.sql..", "okhttp3..",
      "java.util.concurrent..", "cp.gateway..", "cp.ledger..", "cp.tools..", "cp.contracts..", "cp.faults..",
      "cp.worker..", "cp.client..", "cp.bench..", "cp.cli.."};

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

  @Test
  void activitiesDoNotImportWorkflows() {
    noClasses().that().resideInAPackage("cp.activities..")
        .should().dependOnClassesThat().resideInAPackage("cp.workflows..")
        .because("the id rules and failure codes both need live in cp.model; activities run below the workflows")
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

  @Test
  void noLayerImportsOneAboveIt() {
    ArchRule layers = layeredArchitecture().consideringOnlyDependenciesInLayers()
        .layer("Model").definedBy("cp.model..")
        .layer("Faults").definedBy("cp.faults..")
        .layer("Ledger").definedBy("cp.ledger..")
        .layer("Contracts").definedBy("cp.contracts..")
        .layer("Gateway").definedBy("cp.gateway..")
        .layer("Tools").definedBy("cp.tools..")
        .layer("Activities").definedBy("cp.activities..")
        .layer("Workflows").definedBy("cp.workflows..")
        .layer("Worker").definedBy("cp.worker..")
        .layer("Client").definedBy("cp.client..")
        .layer("Bench").definedBy("cp.bench..")
        .layer("Cli").definedBy("cp.cli..")
        .whereLayer("Cli").mayNotBeAccessedByAnyLayer()
        .whereLayer("Bench").mayOnlyBeAccessedByLayers("Cli")
        .whereLayer("Client").mayOnlyBeAccessedByLayers("Bench", "Cli")
        .whereLayer("Worker").mayOnlyBeAccessedByLayers("Bench", "Cli")
        .whereLayer("Workflows").mayOnlyBeAccessedByLayers("Worker", "Client", "Bench", "Cli")
        .whereLayer("Activities").mayOnlyBeAccessedByLayers("Workflows", "Worker", "Bench", "Cli")
        .whereLayer("Gateway").mayOnlyBeAccessedByLayers("Activities", "Worker", "Bench", "Cli")
        .whereLayer("Tools").mayOnlyBeAccessedByLayers("Activities", "Worker", "Bench", "Cli")
        .whereLayer("Contracts").mayOnlyBeAccessedByLayers("Tools", "Activities", "Worker", "Bench", "Cli")
        .whereLayer("Ledger").mayOnlyBeAccessedByLayers("Contracts", "Gateway", "Tools", "Activities", "Worker",
            "Bench", "Cli")
        .whereLayer("Faults").mayOnlyBeAccessedByLayers("Ledger", "Contracts", "Gateway", "Tools", "Activities",
            "Worker", "Bench", "Cli")
        // Known exception, to go with the -client module split (issue 12): the client's default patience
        // with an unreachable service is CP_SERVICE_LOST_MS's default, which WorkerSettings (the plane's
        // env reader) owns. A constant only: the client calls nothing in cp.worker.
        .ignoreDependency(clientClass("ControlPlaneClient"), workerClass("WorkerSettings"));
    layers.check(classes);
  }

  private static DescribedPredicate<JavaClass> clientClass(String simpleName) {
    return describe("cp.client." + simpleName, c -> c.getName().equals("cp.client." + simpleName));
  }

  private static DescribedPredicate<JavaClass> workerClass(String simpleName) {
    return describe("cp.worker." + simpleName, c -> c.getName().equals("cp.worker." + simpleName));
  }
}
