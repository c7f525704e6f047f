// Package verify checks that a live deployment of the ATM Location Lookup
// Service still answers as cassettes recorded it.
//
// [Run] re-sends every interaction recorded in the cassettes to the
// deployment and compares each answer with the recording: status, content
// type, then the structure of the XML or JSON (renamed, added, removed,
// moved elements, namespaces, types) and the values. Each call goes in the
// binding it was recorded in, with [Options].Key in place of the scrubbed
// key (cassettes.Placeholder); a recorded key rejection is re-sent with a
// wrong key. Each interaction gets a [Result]: a [Verdict] and each
// [Difference]. It is `atmkit cassette verify` without the command line.
//
// Drift is no error ([Report.Drifted]); an error means the deployment
// could not be checked: [ErrNoKey], [ErrKeyRefused], [ErrNoAnswer], or a
// cassette that cannot be read (cassettes.ErrCassetteNotFound, …). Test
// for them with errors.Is.
//
// A [Report] writes itself as JUnit XML ([Report.WriteJUnit]) and rewrites
// the cassettes that drifted with the deployment's answers
// ([Report.Update]); a [Printer] prints the results as they come
// ([Options].OnResult). The key, the wrong key and [Options].Secrets
// never appear in a report, an error text or an updated cassette.
package verify
