package cli

import (
	"flag"
	"regexp"
	"runtime"
	"slices"
	"strings"

	"github.com/atmkit/atmkit/cmd/atmkit/internal/shell"
)

// knownEnv are the ATMKIT_* variables some atmkit command reads: the
// mirror of every flag of every command (CommandEnvName: ATMKIT_HEALTH_*
// for health's), the extra names of a few flags (serve's ATMKIT_KEYS,
// health's ATMKIT_URL), and those read as they are (ATMKIT_SHELL, the
// bench's ceiling child's). A variable in the environment of a command
// that none of them names gets a warning (warnUnknownEnv); one that
// another command reads does not: one environment often serves several
// (the image's serve and its health check). TestKnownEnv (cmd/atmkit)
// checks the list against every command's flags and every variable read
// in the code.
var knownEnv = []string{
	"ATMKIT_ADDR", "ATMKIT_ADDRESS", "ATMKIT_ADMIN_HOST", "ATMKIT_ADMIN_TOKEN", "ATMKIT_ATMS",
	"ATMKIT_ATMS_SCALE", "ATMKIT_ATMS_SIZES", "ATMKIT_BENCH_CEILING_CHILD", "ATMKIT_BINDING", "ATMKIT_C",
	"ATMKIT_CASSETTE", "ATMKIT_CA_CERT", "ATMKIT_CHECK", "ATMKIT_CITY", "ATMKIT_CITY_ID",
	"ATMKIT_CLIENT_CERT", "ATMKIT_CLIENT_KEY", "ATMKIT_CONCURRENCY", "ATMKIT_CONFIG", "ATMKIT_COPY_CEILING",
	"ATMKIT_CPUPROFILE", "ATMKIT_D", "ATMKIT_DETAILED_ERRORS", "ATMKIT_DEVIATE", "ATMKIT_FAULT",
	"ATMKIT_FIXTURES", "ATMKIT_GRACE", "ATMKIT_HEADER", "ATMKIT_HEALTH_CA_CERT", "ATMKIT_HEALTH_CLIENT_CERT",
	"ATMKIT_HEALTH_CLIENT_KEY", "ATMKIT_HEALTH_HEADER", "ATMKIT_HEALTH_INSECURE_SKIP_VERIFY", "ATMKIT_HEALTH_LEGACY_TLS", "ATMKIT_HEALTH_TIMEOUT",
	"ATMKIT_HEALTH_URL", "ATMKIT_INSECURE_SKIP_VERIFY", "ATMKIT_INSTITUTION_ID", "ATMKIT_JOURNAL_BODY_MAX", "ATMKIT_JOURNAL_SIZE",
	"ATMKIT_JSON", "ATMKIT_JSON_ERRORS", "ATMKIT_JSON_REPORT", "ATMKIT_JUNIT_REPORT", "ATMKIT_KEY",
	"ATMKIT_KEYS", "ATMKIT_LABEL_FILTER", "ATMKIT_LATITUDE", "ATMKIT_LEGACY_TLS", "ATMKIT_LOG_FORMAT",
	"ATMKIT_LOG_LEVEL", "ATMKIT_LONGITUDE", "ATMKIT_MAXIMUM", "ATMKIT_MAX_BODY", "ATMKIT_MAX_DIFFERENCES", "ATMKIT_MAX_HTTP_COLLECTION_KEYS",
	"ATMKIT_MAX_QUERY_STRING_LENGTH", "ATMKIT_MAX_URL_LENGTH", "ATMKIT_NAMESPACE", "ATMKIT_NO_COLOR", "ATMKIT_ON_MISS",
	"ATMKIT_OP", "ATMKIT_OUT", "ATMKIT_PARAM", "ATMKIT_POSTAL_CODE", "ATMKIT_PROGRESS",
	"ATMKIT_PROVINCE", "ATMKIT_QUIET", "ATMKIT_RADIUS", "ATMKIT_RADIUS_UNIT", "ATMKIT_RATE",
	"ATMKIT_REPLAY", "ATMKIT_REPLAY_SCALE", "ATMKIT_REPLAY_SIZES", "ATMKIT_REQUEST_ENCODING", "ATMKIT_REQUEST_PATH_INVALID_CHARS",
	"ATMKIT_REQUEST_VALIDATION", "ATMKIT_ROUNDS", "ATMKIT_SAVE_INTERVAL", "ATMKIT_SCRUB_HEADER", "ATMKIT_SEED",
	"ATMKIT_SERVICE_NAME", "ATMKIT_SHAPE", shell.EnvVar, "ATMKIT_TARGET", "ATMKIT_TIMEOUT",
	"ATMKIT_TLS_CA_OUT", "ATMKIT_TLS_CERT", "ATMKIT_TLS_CLIENT_CA", "ATMKIT_TLS_KEY", "ATMKIT_TLS_MIN_VERSION",
	"ATMKIT_TLS_NAME", "ATMKIT_TLS_SELF_SIGNED", "ATMKIT_UPDATE", "ATMKIT_UPSTREAM", "ATMKIT_URL",
	"ATMKIT_VALUES", "ATMKIT_VERBOSE", "ATMKIT_WARMUP", "ATMKIT_WIREMOCK", "ATMKIT_WIREMOCK_JAR",
	"ATMKIT_WSDL",
}

// serviceLinkEnv matches the variables Kubernetes puts in every pod for
// each Service of its namespace (enableServiceLinks, on by default), as
// Docker's links did: a Service named atmkit (docs/ci/kubernetes.yaml's)
// gives ATMKIT_SERVICE_HOST, ATMKIT_SERVICE_PORT, ATMKIT_SERVICE_PORT_HTTP
// (a named port), ATMKIT_PORT, ATMKIT_PORT_8080_TCP and its _PROTO, _PORT
// and _ADDR; one named atmkit-replay, ATMKIT_REPLAY_SERVICE_HOST and so
// on. Docker's legacy links, which GitLab CI's Docker executor makes to a
// job's services, give the same _PORT variables and ATMKIT_NAME and
// ATMKIT_ENV_<variable> (the service's own ATMKIT_ENV_ATMKIT_KEYS) to a
// job that runs atmkit beside a service aliased atmkit, and the same
// again for the aliases GitLab derives from the image atmkit/atmkit
// (ATMKIT__ATMKIT_NAME, ATMKIT_ATMKIT_ENV_ATMKIT_ADDR). They are the
// cluster's or the engine's, no typo of the user's: warnUnknownEnv leaves
// them be (a name some command reads is known before this).
var serviceLinkEnv = regexp.MustCompile(`^ATMKIT_(?:(?:_?ATMKIT_)?(?:NAME|ENV_[A-Za-z0-9_]+)|(?:[A-Z0-9_]+_)?(?:SERVICE_HOST|SERVICE_PORT(?:_[A-Z0-9_]+)?|PORT(?:_[0-9]+_(?:TCP|UDP|SCTP)(?:_PROTO|_PORT|_ADDR)?)?))$`)

// KnownEnv returns the ATMKIT_* variables some atmkit command reads,
// sorted (see knownEnv).
func KnownEnv() []string {
	names := slices.Clone(knownEnv)
	slices.Sort(names)
	return names
}

// envPrefixLen is the length of "ATMKIT_".
const envPrefixLen = len("ATMKIT_")

// warnUnknownEnv warns, once per Env, about each ATMKIT_* variable in the
// environment (Environ; none when it is nil) that no atmkit command reads
// (knownEnv), nor fs's command (its flags' variables and the extra names
// in aliases, as Parse reads them): one line each, naming it and, when it
// is a letter or two off a known one, the one meant. Such a variable is
// ignored, most often a typo (ATMKIT_KYES leaves serve accepting any
// key); it is a warning, not a refusal, since an environment may hold the
// variables of another version of atmkit. Kubernetes' service links
// (serviceLinkEnv) get none. The value is never shown: it
// may be a key. A name in another case (atmkit_keys) is one atmkit does
// not read, but on Windows, whose variables are read in any case.
func (e *Env) warnUnknownEnv(fs *flag.FlagSet, aliases map[string]string) {
	if e.Environ == nil || e.envChecked {
		return
	}
	e.envChecked = true
	fold := func(s string) string { return s }
	if runtime.GOOS == "windows" {
		fold = strings.ToUpper
	}
	known := map[string]bool{}
	for _, n := range knownEnv {
		known[fold(n)] = true
	}
	fs.VisitAll(func(f *flag.Flag) { known[fold(CommandEnvName(fs.Name(), f.Name))] = true })
	for _, n := range aliases {
		known[fold(n)] = true
	}
	var unknown []string
	for _, kv := range e.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if len(name) > envPrefixLen && strings.EqualFold(name[:envPrefixLen], "ATMKIT_") && !known[fold(name)] &&
			!serviceLinkEnv.MatchString(name) && !slices.Contains(unknown, name) {
			unknown = append(unknown, name)
		}
	}
	slices.Sort(unknown)
	suffixes := make([]string, 0, len(known))
	for n := range known {
		suffixes = append(suffixes, strings.ToLower(n[envPrefixLen:]))
	}
	for _, name := range unknown {
		meant := ""
		if m := closest(name[envPrefixLen:], suffixes); m != "" {
			meant = " (did you mean ATMKIT_" + strings.ToUpper(m) + "?)"
		}
		e.Warnf("%s: no atmkit command reads this variable, so it is ignored%s", name, meant)
	}
}
