package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.ybbench.harness.benchmark.FleetOptions;
import dev.ybbench.harness.results.Console;
import dev.ybbench.ycsb.cli.YcsbOptions;
import dev.ybbench.ycsb.cli.YcsbSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * deploy/k8s/ on paper, since no Kubernetes runs here: every manifest parses, every client's
 * command line as Kubernetes would expand it for every completion index is accepted by
 * run_ycsb.sh's own option parser and names a shipped workload, an Indexed Job's completions,
 * parallelism and --clients agree, and the merge Job merges exactly the directories the client
 * Jobs write, one run per client.
 */
class DeployManifestsTest {
  private static final Path K8S = RunYcsbTest.HOME.resolve("deploy/k8s");
  private static final Pattern REFERENCE = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");
  private static final String JOB_UID = "0f8e7c6d-5b4a-4392-8170-6a5b4c3d2e1f";

  /** A client Job as its pods would run it. */
  record ClientJob(String name, int clients, String resultsDir, List<YcsbOptions> commands) {}

  private static List<JsonNode> documents() throws Exception {
    List<JsonNode> docs = new ArrayList<>();
    try (Stream<Path> files = Files.list(K8S)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
        try (MappingIterator<JsonNode> it = new YAMLMapper().readerFor(JsonNode.class).readValues(f.toFile())) {
          while (it.hasNext()) {
            JsonNode doc = it.next();
            assertTrue(doc.hasNonNull("kind") && doc.hasNonNull("apiVersion"), f + ": " + doc);
            docs.add(doc);
          }
        }
      }
    }
    return docs;
  }

  /** The image's entry point, from deploy/Dockerfile: what a container without a command runs. */
  private static String entryPoint() throws Exception {
    return Files.readAllLines(RunYcsbTest.HOME.resolve("deploy/Dockerfile")).stream()
        .filter(l -> l.startsWith("ENTRYPOINT")).map(l -> l.replaceAll(".*\\[\"(.*)\"\\].*", "$1"))
        .reduce((a, b) -> b).orElseThrow();
  }

  /** Kubernetes' $(VAR) expansion of one argument, from the container's env for completion index {@code index}. */
  private static String expand(String arg, JsonNode container, int index) {
    Map<String, String> env = new HashMap<>();
    for (JsonNode e : container.path("env")) {
      String field = e.at("/valueFrom/fieldRef/fieldPath").asText("");
      if (e.has("value")) {
        env.put(e.get("name").asText(), e.get("value").asText());
      } else if (field.equals("metadata.annotations['batch.kubernetes.io/job-completion-index']")) {
        env.put(e.get("name").asText(), Integer.toString(index));
      } else if (field.equals("metadata.labels['batch.kubernetes.io/controller-uid']")) {
        env.put(e.get("name").asText(), JOB_UID);
      } else {
        fail("env " + e + " is not one a Job's pod can have");
      }
    }
    Matcher m = REFERENCE.matcher(arg);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String value = env.get(m.group(1));
      assertTrue(value != null, "$(" + m.group(1) + ") in '" + arg + "' is not in the container's env, so "
          + "Kubernetes would pass it as it is");
      m.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    return m.appendTail(out).toString();
  }

  /** Parses with the real parser, as the JVM behind run_ycsb.sh does; a bad option fails here. */
  private static YcsbOptions parse(List<String> args) {
    YcsbCommand cmd = new YcsbCommand();
    new CommandLine(cmd).parseArgs(args.toArray(new String[0]));
    return cmd.options();
  }

  private static List<ClientJob> clientJobs(List<JsonNode> docs) throws Exception {
    List<ClientJob> jobs = new ArrayList<>();
    for (JsonNode doc : docs) {
      JsonNode spec = doc.path("spec");
      if (!doc.get("kind").asText().equals("Job") || !spec.path("completionMode").asText().equals("Indexed")) {
        continue;
      }
      String name = doc.at("/metadata/name").asText();
      int completions = spec.get("completions").asInt();
      assertEquals(completions, spec.get("parallelism").asInt(), name + ": every client at once");
      assertEquals(0, spec.get("backoffLimit").asInt(), name + ": a retried client would redo its keys");
      JsonNode container = spec.at("/template/spec/containers/0");
      assertFalse(container.has("command"), name + ": the image's entry point runs the clients");
      List<YcsbOptions> commands = new ArrayList<>();
      for (int i = 0; i < completions; i++) {
        List<String> args = new ArrayList<>();
        for (JsonNode a : container.get("args")) {
          args.add(expand(a.asText(), container, i));
        }
        YcsbOptions c = parse(args);
        assertEquals(completions, c.fleet.clients, name + ": --clients is the Job's completions");
        assertEquals(i, c.fleet.clientIndex, name + ": --client-index is the completion index");
        WorkloadFiles.resolve(c.workload, c.files, RunYcsbTest.HOME);
        assertTrue(c.fleet.id == null || c.fleet.id.matches(FleetOptions.ID), name + ": --fleet " + c.fleet.id);
        assertTrue(args.contains("--no-install"), name + ": a client installs nothing");
        commands.add(c);
      }
      assertEquals(1, commands.stream().map(c -> c.fleet.id).distinct().count(), name + ": one fleet id");
      String resultsDir = commands.get(0).run.resultsRoot(RunYcsbTest.HOME).toString();
      jobs.add(new ClientJob(name, completions, resultsDir, commands));
    }
    return jobs;
  }

  @Test
  void everyClientCommandLineIsAcceptedForEveryIndex() throws Exception {
    assertEquals("./run_ycsb.sh", entryPoint());
    List<ClientJob> jobs = clientJobs(documents());
    assertEquals(List.of("ybbench-sqlinserts-load", "ybbench-sqlinserts-read"),
        jobs.stream().map(ClientJob::name).sorted().toList());
    ClientJob load = jobs.stream().filter(j -> j.name().endsWith("-load")).findFirst().orElseThrow();
    ClientJob read = jobs.stream().filter(j -> j.name().endsWith("-read")).findFirst().orElseThrow();
    // The read phase reads exactly the keys the load wrote: same records, same clients.
    assertEquals(load.commands().get(0).records, read.commands().get(0).records);
    assertEquals(load.clients(), read.clients());
    assertTrue(load.commands().get(0).fleet.id.contains(JOB_UID), "the load's fleet id is its Job's uid");
    assertFalse(load.resultsDir().equals(read.resultsDir()), "each phase in its own directory, merged on its own");
  }

  @Test
  void theMergeJobMergesWhatTheClientJobsWrite() throws Exception {
    List<JsonNode> docs = documents();
    List<ClientJob> jobs = clientJobs(docs);
    JsonNode merge = docs.stream().filter(d -> d.at("/metadata/name").asText().equals("ybbench-merge"))
        .findFirst().orElseThrow();
    JsonNode container = merge.at("/spec/template/spec/containers/0");
    assertEquals(List.of("sh", "-c"), List.of(container.at("/command/0").asText(), container.at("/command/1").asText()));
    List<String> merged = new ArrayList<>();
    for (String step : container.at("/args/0").asText().strip().split("\\s*&&\\s*")) {
      List<String> words = new ArrayList<>(List.of(step.split("\\s+")));
      assertEquals(entryPoint(), words.remove(0), step);
      int glob = words.indexOf(words.stream().filter(w -> w.endsWith("/*_ycsb_*")).findFirst().orElseThrow());
      String dir = words.get(glob).substring(0, words.get(glob).length() - "/*_ycsb_*".length());
      ClientJob job = jobs.stream().filter(j -> j.resultsDir().equals(dir)).findFirst()
          .orElseThrow(() -> new AssertionError(dir + " is no client Job's --results-dir"));
      // The shell expands the glob to the clients' run directories, one per client.
      words.remove(glob);
      for (int i = job.clients() - 1; i >= 0; i--) {
        words.add(glob, dir + "/20261122T000000Z_ycsb_client" + i);
      }
      YcsbOptions c = parse(words);
      assertEquals(job.clients(), c.merging.merge.size(), step);
      merged.add(job.name());
    }
    assertEquals(jobs.stream().map(ClientJob::name).sorted().toList(), merged.stream().sorted().toList(),
        "every client Job's runs are merged");
  }

  @Test
  void theVolumeAndTheTargetTheJobsUseAreDefined() throws Exception {
    List<JsonNode> docs = documents();
    List<String> claims = docs.stream().filter(d -> d.get("kind").asText().equals("PersistentVolumeClaim"))
        .map(d -> d.at("/metadata/name").asText()).toList();
    List<String> configMaps = docs.stream().filter(d -> d.get("kind").asText().equals("ConfigMap"))
        .map(d -> d.at("/metadata/name").asText()).toList();
    for (JsonNode job : docs.stream().filter(d -> d.get("kind").asText().equals("Job")).toList()) {
      JsonNode pod = job.at("/spec/template/spec");
      assertEquals("Never", pod.get("restartPolicy").asText());
      for (JsonNode v : pod.get("volumes")) {
        assertTrue(claims.contains(v.at("/persistentVolumeClaim/claimName").asText()), v.toString());
      }
      for (JsonNode from : pod.at("/containers/0/envFrom")) {
        if (from.has("configMapRef")) {
          assertTrue(configMaps.contains(from.at("/configMapRef/name").asText()), from.toString());
        }
      }
      assertEquals("/results", pod.at("/containers/0/volumeMounts/0/mountPath").asText());
    }
  }
}
