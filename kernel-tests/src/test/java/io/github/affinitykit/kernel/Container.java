package io.github.affinitykit.kernel;

import java.util.List;

/**
 * A run's JVM in an OCI container started by {@code runc}, as the kubelet's runtime starts one: the
 * shell function {@link #LAUNCHER} (defined by the run's prefix, given the JVM's command line)
 * writes a bundle under {@code /tmp/<id>} (a rootfs of bind mounts of the initramfs's top-level
 * directories, a {@code /shared} directory, its own proc, sysfs, cgroup2 and {@code /dev}; pid,
 * mount, ipc and uts namespaces; the cgroup and its CPUs), runs it with {@code runc run --no-pivot}
 * (the initramfs cannot be pivoted away from) in the background, waits for the JVM to write {@code
 * /shared/ready} (90 s at most), runs the scene's step (a {@code runc update}), writes {@code
 * /shared/updated}, waits for the container to end (60 s at most, then kills it), deletes it and
 * copies the JVM's result (written to {@code /shared/result}) to the result port.
 *
 * <p>Thread safety: stateless.
 */
final class Container {
  /** The shell function that starts the JVM in the container; a {@link Shape.Run}'s launcher. */
  static final String LAUNCHER = "in_container";

  /** Docker's default capabilities: what a Kubernetes pod's container has unless told otherwise. */
  private static final String CAPS =
      "CAP_CHOWN CAP_DAC_OVERRIDE CAP_FSETID CAP_FOWNER CAP_MKNOD CAP_NET_RAW CAP_SETGID"
          + " CAP_SETUID CAP_SETFCAP CAP_SETPCAP CAP_NET_BIND_SERVICE CAP_SYS_CHROOT CAP_KILL"
          + " CAP_AUDIT_WRITE";

  private static final String FUNCTION =
      """
      in_container() {
        B=/tmp/@ID
        mkdir -p $B/rootfs/tmp $B/shared /run
        M=''
        for d in /*; do
          case $d in /proc|/sys|/dev|/tmp|/run) continue;; esac
          if [ -L $d ]; then cp -a $d $B/rootfs/; continue; fi
          [ -d $d ] || continue
          mkdir -p $B/rootfs$d
          M="$M,{\\"destination\\":\\"$d\\",\\"type\\":\\"bind\\",\\"source\\":\\"$d\\",\\"options\\":[\\"rbind\\"]}"
        done
        A=''
        for a in "$@"; do
          case $a in -Dkernel.result=*) a=-Dkernel.result=/shared/result;; esac
          A="$A${A:+,}\\"$a\\""
        done
        C=''
        for c in @CAPS; do C="$C${C:+,}\\"$c\\""; done
        cat > $B/config.json <<EOF
      {"ociVersion":"1.0.2","hostname":"@ID","root":{"path":"rootfs"},
       "process":{"terminal":false,"user":{"uid":0,"gid":0},"cwd":"/","args":[$A],
        "env":["PATH=/bin:/usr/bin:/usr/sbin","LANG=C.UTF-8","HOME=/tmp"],
        "capabilities":{"bounding":[$C],"effective":[$C],"permitted":[$C]}},
       "mounts":[{"destination":"/proc","type":"proc","source":"proc"},
        {"destination":"/dev","type":"tmpfs","source":"tmpfs","options":["nosuid","mode=755"]},
        {"destination":"/sys","type":"sysfs","source":"sysfs","options":["nosuid","noexec","nodev"]},
        {"destination":"/sys/fs/cgroup","type":"cgroup2","source":"cgroup","options":["nosuid","noexec","nodev"]},
        {"destination":"/shared","type":"bind","source":"$B/shared","options":["rbind"]}$M],
       "linux":{"cgroupsPath":"@CGROUP","resources":{"cpu":{"cpus":"@CPUS"},
         "devices":[{"allow":false,"access":"rwm"}]},
        "namespaces":[{"type":"pid"},{"type":"mount"},{"type":"ipc"},{"type":"uts"}]}}
      EOF
        cd $B || return 1
        runc run --no-pivot @ID &
        P=$!
        i=0
        while [ ! -e $B/shared/ready ] && kill -0 $P 2>/dev/null && [ $i -lt 90 ]; do
          sleep 1; i=$((i+1))
        done
        if [ -e $B/shared/ready ]; then
          echo "container @ID ready after $i s, uptime $(up): @STEP"
          @STEP
          echo "step exit=$? cpuset.cpus.effective=$(cat /sys/fs/cgroup@CGROUP/cpuset.cpus.effective)"
          touch $B/shared/updated
        else
          echo "container @ID not ready after $i s"
        fi
        j=0
        while kill -0 $P 2>/dev/null && [ $j -lt 60 ]; do sleep 1; j=$((j+1)); done
        if kill -0 $P 2>/dev/null; then
          echo "container @ID still running after 60 s: killed"
          runc kill @ID KILL
        fi
        wait $P
        rc=$?
        runc delete -f @ID
        cat $B/shared/result > $R
        return $rc
      }
      """;

  private Container() {}

  /**
   * The run prefix that defines {@link #LAUNCHER}.
   *
   * @param id the container's id (and hostname)
   * @param cgroup its {@code linux.cgroupsPath}, absolute
   * @param cpus its {@code linux.resources.cpu.cpus}
   * @param step the shell command run once the JVM is ready, e.g. {@code runc update ...}
   */
  static List<String> prefix(String id, String cgroup, String cpus, String step) {
    return List.of(
        FUNCTION
            .replace("@STEP", step)
            .replace("@ID", id)
            .replace("@CGROUP", cgroup)
            .replace("@CPUS", cpus)
            .replace("@CAPS", CAPS)
            .stripTrailing());
  }
}
