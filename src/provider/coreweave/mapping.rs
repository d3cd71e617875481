//! Pure translations between the trait's types and CoreWeave's: labels ↔ tags, states,
//! sandbox info, the CreateSandbox body, exec argv, git clone, log lines, errors.

use std::collections::BTreeMap;
use std::time::Duration;

use futures::StreamExt;
use futures::stream::BoxStream;

use super::{DEFAULT_IMAGE, IDLE_COMMAND, MAIN_CONTAINER, MAX_LIFETIME_SECS, NAME_TAG};
use crate::api::ApiError;
use crate::api::coreweave::{CoreweaveError, ErrorKind, pb};
use crate::api::http::COREWEAVE;
use crate::provider::{
    ContainerStatus, ExecRequest, GitClone, ProviderError, Result, SandboxInfo, SandboxSpec,
    SandboxState, Source,
};

/// Map a client error onto the provider's error kinds.
pub fn err(e: CoreweaveError) -> ProviderError {
    let message = e.to_string();
    match e.kind {
        ErrorKind::Unauthenticated | ErrorKind::PermissionDenied => {
            ProviderError::Api(ApiError::Unauthorized {
                service: COREWEAVE,
                status: if e.kind == ErrorKind::Unauthenticated {
                    401
                } else {
                    403
                },
                message,
            })
        }
        ErrorKind::NotFound => ProviderError::NotFound(message),
        ErrorKind::AlreadyExists => ProviderError::AlreadyExists(message),
        ErrorKind::ResourceExhausted => {
            ProviderError::Quota(match crate::settings::advice::coreweave(&e) {
                Some(h) => format!("{message} ({h})"),
                None => message,
            })
        }
        ErrorKind::Invalid | ErrorKind::FailedPrecondition => ProviderError::Invalid(message),
        ErrorKind::Unavailable => ProviderError::Api(ApiError::Transport {
            service: COREWEAVE,
            url: e.method.to_string(),
            detail: message,
        }),
        ErrorKind::DeadlineExceeded => match e.deadline {
            Some(d) => ProviderError::Timeout(d),
            None => ProviderError::Other(message),
        },
        ErrorKind::Cancelled | ErrorKind::Unimplemented | ErrorKind::Other => {
            ProviderError::Other(match crate::settings::advice::coreweave(&e) {
                Some(h) => format!("{message} ({h})"),
                None => message,
            })
        }
    }
}

/// Labels as `key=value` tags, sorted. Keys must be non-empty, without `=`, and not the
/// reserved name key.
pub fn labels_to_tags(labels: &BTreeMap<String, String>) -> Result<Vec<String>> {
    labels
        .iter()
        .map(|(k, v)| {
            if k.is_empty() || k.contains('=') {
                return Err(ProviderError::Invalid(format!(
                    "label key `{k}` cannot be a CoreWeave tag (keys must be non-empty and \
                     without `=`)"
                )));
            }
            if k == NAME_TAG {
                return Err(ProviderError::Invalid(format!(
                    "label key `{NAME_TAG}` is reserved for the sandbox name"
                )));
            }
            Ok(format!("{k}={v}"))
        })
        .collect()
}

/// The labels in a tag list (tags with `=`, except the name tag).
pub fn tags_to_labels(tags: &[String]) -> BTreeMap<String, String> {
    tags.iter()
        .filter_map(|t| t.split_once('='))
        .filter(|(k, _)| !k.is_empty() && *k != NAME_TAG)
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

pub(super) fn name_from_tags(tags: &[String]) -> Option<String> {
    tags.iter()
        .filter_map(|t| t.split_once('='))
        .find(|(k, _)| *k == NAME_TAG)
        .map(|(_, v)| v.to_string())
}

pub(super) fn state_of(sb: &pb::Sandbox) -> pb::State {
    sb.status
        .as_ref()
        .and_then(|s| pb::State::try_from(s.state).ok())
        .unwrap_or(pb::State::Unspecified)
}

pub(super) fn is_terminal(s: pb::State) -> bool {
    matches!(
        s,
        pb::State::Completed | pb::State::Failed | pb::State::Terminated
    )
}

pub(super) fn is_coming_up(s: pb::State) -> bool {
    matches!(
        s,
        pb::State::Creating | pb::State::Pending | pb::State::Preparing
    )
}

/// The trait's state for a CoreWeave state.
pub fn map_state(s: pb::State) -> SandboxState {
    use pb::State::*;
    match s {
        Creating | Pending | Preparing => SandboxState::Creating,
        Running => SandboxState::Started,
        Paused => SandboxState::Stopped,
        Terminating => SandboxState::Deleting,
        Completed | Terminated => SandboxState::Deleted,
        Failed => SandboxState::Error,
        Unspecified => SandboxState::Unknown,
    }
}

/// The SDK's status name: the enum name without `STATE_`, lower-cased (`running`).
pub(super) fn short_state(raw: i32) -> String {
    match pb::State::try_from(raw) {
        Ok(s) => s
            .as_str_name()
            .trim_start_matches("STATE_")
            .to_ascii_lowercase(),
        Err(_) => format!("unknown({raw})"),
    }
}

/// A CoreWeave sandbox as the trait reports it.
pub fn to_info(sb: &pb::Sandbox) -> SandboxInfo {
    let tags: &[String] = sb.spec.as_ref().map(|s| s.tags.as_slice()).unwrap_or(&[]);
    let status = sb.status.clone().unwrap_or_default();
    let raw_state = match pb::State::try_from(status.state) {
        Ok(s) => s.as_str_name().to_string(),
        Err(_) => format!("STATE_{}", status.state),
    };
    let containers = status
        .container_statuses
        .iter()
        .map(|c| {
            let finished = pb::State::try_from(c.state).is_ok_and(is_terminal);
            ContainerStatus {
                name: c.name.clone(),
                state: short_state(c.state),
                exit_code: finished.then_some(c.exit_code),
                restart_count: c.restart_count.max(0) as u32,
            }
        })
        .collect();
    let name = name_from_tags(tags)
        .or_else(|| (!sb.display_name.is_empty()).then(|| sb.display_name.clone()))
        .unwrap_or_else(|| sb.sandbox_id.clone());
    let mut error_reason = (!status.state_reason.is_empty()).then(|| status.state_reason.clone());
    if error_reason.is_none()
        && status.state == pb::State::Failed as i32
        && let Some(code) = status.exit_code
    {
        error_reason = Some(format!("exited with code {code}"));
    }
    SandboxInfo {
        id: sb.sandbox_id.clone(),
        name,
        state: map_state(state_of(sb)),
        raw_state,
        disk: crate::provider::Disk::Attached,
        labels: tags_to_labels(tags),
        created_at: status
            .create_time
            .as_ref()
            .map(|t| t.seconds as f64 + f64::from(t.nanos) / 1e9),
        error_reason,
        containers,
        egress: super::network::effective(&status),
    }
}

/// Kubernetes-style quantities: cores → `2` / `500m`; GiB → `4Gi` / `512Mi`.
pub(super) fn cpu_quantity(cores: f64) -> String {
    if cores.fract() == 0.0 {
        format!("{}", cores as u64)
    } else {
        format!("{}m", (cores * 1000.0).round() as u64)
    }
}

pub(super) fn memory_quantity(gib: f64) -> String {
    if gib.fract() == 0.0 {
        format!("{}Gi", gib as u64)
    } else {
        format!("{}Mi", (gib * 1024.0).round() as u64)
    }
}

/// Secret-store references, grouped by store (as the SDK does).
fn secret_stores(refs: &[crate::provider::SecretRef]) -> Vec<pb::SecretStoreReference> {
    let mut stores: BTreeMap<&str, Vec<pb::SecretMapping>> = BTreeMap::new();
    for r in refs {
        stores
            .entry(r.store.as_str())
            .or_default()
            .push(pb::SecretMapping {
                path: r.name.clone(),
                field: String::new(),
                env_var: if r.env_var.is_empty() {
                    r.name.clone()
                } else {
                    r.env_var.clone()
                },
            });
    }
    stores
        .into_iter()
        .map(|(store, secrets)| pb::SecretStoreReference {
            store_name: store.to_string(),
            secrets,
        })
        .collect()
}

/// Requested CPU, memory and GPUs as CoreWeave quantities (empty where unset).
fn resources(r: &crate::provider::Resources) -> pb::Resources {
    pb::Resources {
        cpu: r
            .cpu
            .filter(|c| *c > 0.0)
            .map(cpu_quantity)
            .unwrap_or_default(),
        memory: r
            .memory_gib
            .filter(|m| *m > 0.0)
            .map(memory_quantity)
            .unwrap_or_default(),
        gpu: r.gpu.filter(|g| *g > 0).map(|count| pb::Gpu {
            count: i64::from(count),
            selector: r
                .gpu_type
                .as_ref()
                .filter(|t| !t.is_empty())
                .map(|t| pb::gpu::Selector::Type(t.clone())),
        }),
    }
}

/// The CreateSandbox body for a spec.
pub fn build_sandbox(spec: &SandboxSpec) -> Result<pb::Sandbox> {
    let image = match &spec.source {
        Source::Image(i) if !i.trim().is_empty() => i.trim().to_string(),
        Source::Image(_) => return Err(ProviderError::Invalid("the image name is empty".into())),
        Source::Default => DEFAULT_IMAGE.to_string(),
        Source::Snapshot(s) => {
            return Err(ProviderError::Invalid(format!(
                "CoreWeave sandboxes boot from container images, not snapshots (`{s}`); pass an \
                 image instead"
            )));
        }
    };
    let argv: Vec<String> = match &spec.command {
        Some(argv) if !argv.is_empty() => argv.clone(),
        Some(_) => return Err(ProviderError::Invalid("the main command is empty".into())),
        None => IDLE_COMMAND.iter().map(|s| s.to_string()).collect(),
    };
    let mut tags = labels_to_tags(&spec.labels)?;
    if spec.name.is_empty() || spec.name.contains('\n') {
        return Err(ProviderError::Invalid(format!(
            "`{}` is not a usable sandbox name",
            spec.name
        )));
    }
    tags.push(format!("{NAME_TAG}={}", spec.name));
    if spec.handable {
        tags.push(super::handover::HANDABLE_TAG.to_string());
    }

    let secret_stores = secret_stores(&spec.secret_refs);
    let resources = resources(&spec.resources);
    let has_resources =
        !resources.cpu.is_empty() || !resources.memory.is_empty() || resources.gpu.is_some();
    let security_context = spec
        .user
        .as_deref()
        .and_then(|u| u.parse::<u32>().ok())
        .map(|uid| pb::SecurityContext {
            run_as_user: Some(uid),
            ..Default::default()
        });
    let container = pb::Container {
        name: MAIN_CONTAINER.into(),
        image,
        command: argv[0].clone(),
        args: argv[1..].to_vec(),
        environment_variables: spec
            .env
            .iter()
            .map(|(k, v)| (k.clone(), v.expose().to_string()))
            .collect(),
        secret_stores,
        resource_requirements: has_resources.then(|| pb::ResourceRequirements {
            requests: Some(resources.clone()),
            limits: Some(resources),
        }),
        security_context,
        ..Default::default()
    };
    let max_lifetime_seconds = spec
        .max_lifetime
        .map(|d| d.as_secs().clamp(1, MAX_LIFETIME_SECS) as i32)
        .unwrap_or(0);
    let network = super::network::options(&spec.egress).map_err(ProviderError::Invalid)?;
    Ok(pb::Sandbox {
        spec: Some(pb::SandboxSpec {
            containers: vec![container],
            max_lifetime_seconds,
            tags,
            network,
            ..Default::default()
        }),
        display_name: spec.name.clone(),
        ..Default::default()
    })
}

/// The argv an exec runs: a shell line via `/bin/sh -c`; `cwd` applied like the SDK.
pub fn exec_argv(req: &ExecRequest) -> Result<Vec<String>> {
    let argv: Vec<String> = match &req.cmd {
        crate::provider::Cmd::Shell(line) => vec!["/bin/sh".into(), "-c".into(), line.clone()],
        crate::provider::Cmd::Argv(argv) if argv.is_empty() => {
            return Err(ProviderError::Invalid("the command is empty".into()));
        }
        crate::provider::Cmd::Argv(argv) => argv.clone(),
    };
    Ok(match req.cwd.as_deref().filter(|c| !c.is_empty()) {
        Some(cwd) => {
            let quoted: Vec<String> = argv.iter().map(|a| crate::shell::posix_quote(a)).collect();
            vec![
                "/bin/sh".into(),
                "-c".into(),
                format!(
                    "cd {} && exec {}",
                    crate::shell::posix_quote(cwd),
                    quoted.join(" ")
                ),
            ]
        }
        None => argv,
    })
}

/// Split raw log chunks into lines (a trailing partial line comes last).
pub(super) fn lines(
    chunks: BoxStream<'static, std::result::Result<bytes::Bytes, CoreweaveError>>,
) -> BoxStream<'static, Result<String>> {
    struct St {
        chunks: BoxStream<'static, std::result::Result<bytes::Bytes, CoreweaveError>>,
        buf: Vec<u8>,
        ready: std::collections::VecDeque<Result<String>>,
        done: bool,
    }
    let st = St {
        chunks,
        buf: Vec::new(),
        ready: Default::default(),
        done: false,
    };
    futures::stream::unfold(st, |mut st| async move {
        loop {
            if let Some(item) = st.ready.pop_front() {
                return Some((item, st));
            }
            if st.done {
                return None;
            }
            match st.chunks.next().await {
                Some(Ok(chunk)) => {
                    st.buf.extend_from_slice(&chunk);
                    while let Some(pos) = st.buf.iter().position(|b| *b == b'\n') {
                        let line: Vec<u8> = st.buf.drain(..=pos).collect();
                        let text = String::from_utf8_lossy(&line[..line.len() - 1]);
                        st.ready
                            .push_back(Ok(text.trim_end_matches('\r').to_string()));
                    }
                }
                Some(Err(e)) => {
                    st.done = true;
                    st.ready.push_back(Err(err(e)));
                }
                None => {
                    st.done = true;
                    if !st.buf.is_empty() {
                        let text = String::from_utf8_lossy(&st.buf).into_owned();
                        st.buf.clear();
                        st.ready.push_back(Ok(text));
                    }
                }
            }
        }
    })
    .boxed()
}

/// The exec that clones a repository. Credentials go in the exec's env and reach git through
/// an inline credential helper that names the variables only: never in the URL or argv.
pub fn git_clone_request(req: &GitClone) -> ExecRequest {
    let mut argv: Vec<String> = vec!["git".into()];
    let mut exec = ExecRequest::argv(Vec::<String>::new());
    exec.env.insert(
        "GIT_TERMINAL_PROMPT".into(),
        crate::secrets::Secret::new("0"),
    );
    if let Some(password) = &req.password {
        argv.extend([
            "-c".into(),
            "credential.helper=".into(),
            "-c".into(),
            "credential.helper=!f() { test \"$1\" = get && echo \"username=${OUTPOSTS_GIT_USERNAME}\" && echo \"password=${OUTPOSTS_GIT_PASSWORD}\"; }; f".into(),
        ]);
        exec.env
            .insert("OUTPOSTS_GIT_PASSWORD".into(), password.clone());
        exec.env.insert(
            "OUTPOSTS_GIT_USERNAME".into(),
            crate::secrets::Secret::new(req.username_or_default()),
        );
    }
    argv.push("clone".into());
    if let Some(b) = req.branch.as_deref().filter(|b| !b.is_empty()) {
        argv.extend(["--branch".into(), b.to_string()]);
    }
    argv.extend(["--".into(), req.url.clone(), req.path.clone()]);
    exec.cmd = crate::provider::Cmd::Argv(argv);
    exec.timeout = Some(Duration::from_secs(900));
    exec
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::{Cmd, Resources, SecretRef};
    use crate::secrets::Secret;

    #[test]
    fn labels_and_tags_round_trip() {
        let labels = BTreeMap::from([
            ("devin.session_id".to_string(), "devin-abc".to_string()),
            ("devin.outpost_id".to_string(), "outpost_env-1".to_string()),
            ("with.equals".to_string(), "a=b".to_string()),
            ("empty".to_string(), String::new()),
        ]);
        let tags = labels_to_tags(&labels).unwrap();
        assert!(tags.contains(&"devin.session_id=devin-abc".to_string()));
        assert!(tags.contains(&"with.equals=a=b".to_string()));
        let mut with_extra = tags.clone();
        with_extra.push("cws-agent-session".into());
        with_extra.push(format!("{NAME_TAG}=devin-x"));
        assert_eq!(tags_to_labels(&with_extra), labels);
        assert_eq!(name_from_tags(&with_extra).as_deref(), Some("devin-x"));
    }

    #[test]
    fn bad_label_keys_are_rejected() {
        for key in ["", "a=b", NAME_TAG] {
            let labels = BTreeMap::from([(key.to_string(), "v".to_string())]);
            assert!(
                matches!(labels_to_tags(&labels), Err(ProviderError::Invalid(_))),
                "{key:?}"
            );
        }
    }

    #[test]
    fn states_map() {
        assert_eq!(map_state(pb::State::Creating), SandboxState::Creating);
        assert_eq!(map_state(pb::State::Pending), SandboxState::Creating);
        assert_eq!(map_state(pb::State::Preparing), SandboxState::Creating);
        assert_eq!(map_state(pb::State::Running), SandboxState::Started);
        assert_eq!(map_state(pb::State::Paused), SandboxState::Stopped);
        assert_eq!(map_state(pb::State::Terminating), SandboxState::Deleting);
        assert_eq!(map_state(pb::State::Completed), SandboxState::Deleted);
        assert_eq!(map_state(pb::State::Terminated), SandboxState::Deleted);
        assert_eq!(map_state(pb::State::Failed), SandboxState::Error);
        assert_eq!(map_state(pb::State::Unspecified), SandboxState::Unknown);
    }

    #[test]
    fn info_carries_containers_labels_and_name() {
        let sb = pb::Sandbox {
            sandbox_id: "sb-1".into(),
            spec: Some(pb::SandboxSpec {
                tags: vec!["k=v".into(), format!("{NAME_TAG}=w-1")],
                ..Default::default()
            }),
            status: Some(pb::SandboxStatus {
                state: pb::State::Running as i32,
                container_statuses: vec![
                    pb::ContainerStatus {
                        name: "main".into(),
                        state: pb::State::Running as i32,
                        exit_code: 0,
                        restart_count: 3,
                    },
                    pb::ContainerStatus {
                        name: "side".into(),
                        state: pb::State::Failed as i32,
                        exit_code: 2,
                        restart_count: 0,
                    },
                ],
                create_time: Some(prost_types::Timestamp {
                    seconds: 100,
                    nanos: 500_000_000,
                }),
                ..Default::default()
            }),
            ..Default::default()
        };
        let info = to_info(&sb);
        assert_eq!(info.name, "w-1");
        assert_eq!(info.state, SandboxState::Started);
        assert_eq!(info.raw_state, "STATE_RUNNING");
        assert_eq!(info.labels["k"], "v");
        assert_eq!(info.created_at, Some(100.5));
        assert_eq!(info.containers[0].state, "running");
        assert_eq!(info.containers[0].exit_code, None);
        assert_eq!(info.containers[0].restart_count, 3);
        assert_eq!(info.containers[1].exit_code, Some(2));
        assert_eq!(info.containers[1].state, "failed");
    }

    #[test]
    fn create_body_matches_the_sdk_shape() {
        let mut spec = SandboxSpec::new("w-1", Source::Image("img:1".into()));
        spec.command = Some(vec!["bash".into(), "-ec".into(), "CMD".into()]);
        spec.env.insert("FOO".into(), Secret::new("bar"));
        spec.labels.insert("role".into(), "worker".into());
        spec.secret_refs.push(SecretRef {
            store: "wandb".into(),
            name: "DEVIN_TOKEN".into(),
            env_var: "DEVIN_OUTPOSTS_TOKEN".into(),
        });
        spec.resources = Resources {
            cpu: Some(0.5),
            memory_gib: Some(4.0),
            disk_gib: Some(10),
            gpu: Some(1),
            gpu_type: Some("H100".into()),
        };
        spec.max_lifetime = Some(Duration::from_secs(8 * 3600));
        let sb = build_sandbox(&spec).unwrap();
        let s = sb.spec.unwrap();
        let c = &s.containers[0];
        assert_eq!(c.name, "main");
        assert_eq!(c.image, "img:1");
        assert_eq!(c.command, "bash");
        assert_eq!(c.args, vec!["-ec", "CMD"]);
        assert_eq!(c.environment_variables["FOO"], "bar");
        assert_eq!(c.secret_stores[0].store_name, "wandb");
        assert_eq!(c.secret_stores[0].secrets[0].path, "DEVIN_TOKEN");
        assert_eq!(
            c.secret_stores[0].secrets[0].env_var,
            "DEVIN_OUTPOSTS_TOKEN"
        );
        let rr = c.resource_requirements.clone().unwrap();
        let req = rr.requests.unwrap();
        assert_eq!(req.cpu, "500m");
        assert_eq!(req.memory, "4Gi");
        assert_eq!(req.gpu.as_ref().unwrap().count, 1);
        assert_eq!(rr.limits.unwrap(), req);
        assert_eq!(s.max_lifetime_seconds, 28800);
        assert!(s.tags.contains(&"role=worker".to_string()));
        assert!(s.tags.contains(&format!("{NAME_TAG}=w-1")));

        let idle = build_sandbox(&SandboxSpec::new("x", Source::Default)).unwrap();
        let c = &idle.spec.unwrap().containers[0];
        assert_eq!(c.image, DEFAULT_IMAGE);
        assert_eq!(c.command, "/bin/sh");
        assert!(c.resource_requirements.is_none());
        assert!(build_sandbox(&SandboxSpec::new("x", Source::Snapshot("s".into()))).is_err());
    }

    #[test]
    fn exec_argv_like_the_sdk() {
        let r = ExecRequest::argv(["cat", "/a b"]);
        assert_eq!(exec_argv(&r).unwrap(), vec!["cat", "/a b"]);
        let r = ExecRequest::shell("echo $HOME");
        assert_eq!(exec_argv(&r).unwrap(), vec!["/bin/sh", "-c", "echo $HOME"]);
        let r = ExecRequest::argv(["ls", "it's"]).cwd("/work dir");
        assert_eq!(
            exec_argv(&r).unwrap(),
            vec!["/bin/sh", "-c", "cd '/work dir' && exec ls 'it'\\''s'"]
        );
        let r = ExecRequest {
            cmd: Cmd::Argv(vec![]),
            ..ExecRequest::shell("")
        };
        assert!(exec_argv(&r).is_err());
    }

    #[test]
    fn errors_map_to_provider_kinds() {
        let e = |code| {
            err(CoreweaveError::from_status(
                "GetSandbox",
                &tonic::Status::new(code, "m"),
            ))
        };
        assert!(matches!(
            e(tonic::Code::Unauthenticated),
            ProviderError::Api(ApiError::Unauthorized { status: 401, .. })
        ));
        assert!(matches!(
            e(tonic::Code::NotFound),
            ProviderError::NotFound(_)
        ));
        assert!(matches!(
            e(tonic::Code::ResourceExhausted),
            ProviderError::Quota(_)
        ));
        assert!(matches!(
            e(tonic::Code::InvalidArgument),
            ProviderError::Invalid(_)
        ));
        assert!(matches!(
            e(tonic::Code::Unavailable),
            ProviderError::Api(ApiError::Transport { .. })
        ));
        assert!(matches!(
            e(tonic::Code::AlreadyExists),
            ProviderError::AlreadyExists(_)
        ));
    }

    #[test]
    fn git_credentials_travel_in_env_only() {
        let req = GitClone {
            url: "https://github.com/o/r.git".into(),
            path: "/workspace/r".into(),
            branch: Some("main".into()),
            username: Some("bot".into()),
            password: Some(Secret::new("ghp_secretvalue123456")),
        };
        let exec = git_clone_request(&req);
        let Cmd::Argv(argv) = &exec.cmd else {
            panic!("argv expected")
        };
        assert!(argv.iter().all(|a| !a.contains("ghp_secretvalue123456")));
        assert!(argv.ends_with(&[
            "clone".into(),
            "--branch".into(),
            "main".into(),
            "--".into(),
            "https://github.com/o/r.git".into(),
            "/workspace/r".into()
        ]));
        assert_eq!(
            exec.env["OUTPOSTS_GIT_PASSWORD"].expose(),
            "ghp_secretvalue123456"
        );
        assert_eq!(exec.env["OUTPOSTS_GIT_USERNAME"].expose(), "bot");
        let anonymous = git_clone_request(&GitClone {
            password: None,
            ..req
        });
        assert!(!anonymous.env.contains_key("OUTPOSTS_GIT_PASSWORD"));
    }

    #[test]
    fn quantities() {
        assert_eq!(cpu_quantity(2.0), "2");
        assert_eq!(cpu_quantity(0.25), "250m");
        assert_eq!(memory_quantity(8.0), "8Gi");
        assert_eq!(memory_quantity(0.5), "512Mi");
    }
}
