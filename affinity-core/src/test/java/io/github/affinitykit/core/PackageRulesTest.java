package io.github.affinitykit.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The package rules of {@code affinity-core}, checked on its compiled classes (every reference, not
 * only imports: a type used in the same package, a constant, a method's signature): no cycle among
 * its packages, the value types in a leaf ({@code core.cpu}: {@code CpuSet}, the topology) that
 * reads nothing, and no upward reference from the native layer or the host model into placement or
 * the API that joins them (the audit is affinity-audit: core cannot name it).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PackageRulesTest {
  private static final String CORE = "io.github.affinitykit.core";

  private JavaClasses core;

  @BeforeAll
  void importCore() {
    core =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages(CORE);
  }

  /** Each package of core is a slice of its own, the root package too. */
  private static final SliceAssignment BY_PACKAGE =
      new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
          String p = c.getPackageName();
          return p.equals(CORE) || p.startsWith(CORE + ".")
              ? SliceIdentifier.of(p)
              : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
          return "the packages of affinity-core";
        }
      };

  @Test
  void shouldHaveNoCycleAmongCorePackages() {
    slices().assignedFrom(BY_PACKAGE).should().beFreeOfCycles().check(core);
  }

  @Test
  void shouldKeepTheValueTypesInALeaf() {
    noClasses()
        .that()
        .resideInAnyPackage(CORE + ".cpu", CORE + ".internal.text")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            CORE,
            CORE + ".host..",
            CORE + ".os..",
            CORE + ".placement..",
            CORE + ".reservation..",
            CORE + ".isolation..",
            CORE + ".internal",
            CORE + ".internal.natives..")
        .check(core);
    classes()
        .that()
        .haveSimpleName("CpuSet")
        .or()
        .haveSimpleName("CpuTopology")
        .or()
        .haveSimpleName("CpuInfo")
        .or()
        .haveSimpleName("CoreType")
        .should()
        .resideInAPackage(CORE + ".cpu")
        .check(core);
  }

  /**
   * The leaf holds values only: what reads them from the kernel's files (the topology readers, the
   * population masks, the NUMA nodes) is the host model's, so a reader moved into the leaf fails
   * here through the file API it needs, even before it names the host model.
   */
  @Test
  void shouldKeepTheReadersOutOfTheLeaf() {
    noClasses()
        .that()
        .resideInAPackage(CORE + ".cpu")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("java.io..", "java.nio.file..", "java.nio.channels..")
        .orShould()
        .dependOnClassesThat()
        .haveSimpleNameEndingWith("Reader")
        .check(core);
  }

  @Test
  void shouldNotReachUpFromTheNativeLayerOrTheHostModel() {
    noClasses()
        .that()
        .resideInAnyPackage(CORE + ".internal..", CORE + ".os..", CORE + ".host..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(CORE, CORE + ".placement..")
        .check(core);
  }
}
