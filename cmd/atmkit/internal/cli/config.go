package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/atmkit/atmkit/internal/redact"
)

// A config file (--config FILE) is YAML whose keys are a command's flag
// names, with the same values the flags take:
//
//	addr: 127.0.0.1:9090
//	key: [k1, k2]          # list flags take a list (or one value); "keys" also works
//	log-format: json
//	journal-size: 500
//	fault:                 # "faults" also works; the JSON fields, or the --fault text
//	  - {operation: ReturnProvinces, binding: soap12, delay: 300ms}
//	  - op=ReturnInstitutions,status=503,times=1
//
// Underscores in keys are read as dashes (max_body is max-body). A setting
// applies only when neither the command line nor an ATMKIT_* variable gave
// the flag: flags > environment > config file > defaults.

// configAliases maps plural config keys to their flag names.
var configAliases = map[string]string{"keys": "key", "faults": "fault", "headers": "header"}

// ApplyConfig sets every flag of fs that path names and that was set neither
// on the command line nor through the environment. envAliases are the extra
// variable names of Parse.
func (e *Env) ApplyConfig(fset *flag.FlagSet, path string, envAliases map[string]string) error {
	cmd := fset.Name()
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return e.BadSetting(fset, "config", "the config file does not exist")
		}
		return fmt.Errorf("read config file: %w", err)
	}
	var settings map[string]any
	if err := yaml.Unmarshal(data, &settings); err != nil {
		return Usagef(cmd, "config file %s: %v", path, err)
	}
	origin := e.origins(fset)
	keys := make([]string, 0, len(settings))
	for k := range settings {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	seen := map[string]string{}
	for _, key := range keys {
		name := strings.ReplaceAll(strings.TrimSpace(key), "_", "-")
		if a, ok := configAliases[name]; ok {
			name = a
		}
		f := fset.Lookup(name)
		if f == nil || name == "config" {
			return Usagef(cmd, "config file %s: unknown setting %q", path, key)
		}
		if prev, dup := seen[name]; dup {
			return Usagef(cmd, "config file %s: %q and %q set the same flag", path, prev, key)
		}
		seen[name] = key
		if origin[name] != "" || e.Getenv(CommandEnvName(fset.Name(), name)) != "" || (envAliases[name] != "" && e.Getenv(envAliases[name]) != "") {
			continue
		}
		origin[name] = fmt.Sprintf("%s in config file %s", key, path)
		if err := setFromConfig(f, settings[key]); err != nil {
			v := fmt.Sprint(settings[key])
			if secretFlags[name] {
				v = redact.Key(v)
			}
			problem := err.Error()
			var se *setError
			if errors.As(err, &se) {
				problem = valueProblem(f, se.err)
			}
			return Usagef(cmd, "config file %s: %s: %s: %s (--%s)", path, key, quoteValue(v), problem, name)
		}
	}
	return nil
}

// setFromConfig sets flag f from a YAML value: a list for repeatable flags,
// a scalar for the others; a mapping (a fault) is passed on as JSON.
func setFromConfig(f *flag.Flag, v any) error {
	list, isList := v.([]any)
	repeatable := false
	switch f.Value.(type) {
	case *List, *Faults, *Headers:
		repeatable = true
	}
	if !isList {
		list = []any{v}
	} else if !repeatable {
		return errors.New("a list, but the flag takes one value")
	}
	for _, item := range list {
		var s string
		switch x := item.(type) {
		case nil:
			continue
		case string:
			s = x
		case map[string]any:
			if _, ok := f.Value.(*Faults); !ok {
				return errors.New("a mapping, but the flag takes a plain value")
			}
			b, err := json.Marshal(x)
			if err != nil {
				return err
			}
			s = string(b)
		case []any:
			return errors.New("a nested list")
		default:
			s = fmt.Sprint(x)
		}
		if err := f.Value.Set(s); err != nil {
			return &setError{err}
		}
	}
	return nil
}

// setError is an error of a flag's Set, as opposed to a value of the wrong
// YAML shape.
type setError struct{ err error }

func (e *setError) Error() string { return e.err.Error() }
