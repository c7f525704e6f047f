package recorded

// MaxDepth is how many levels an answer's XML elements or JSON values may
// nest for atmkit to re-wrap or compare it. Both walk an answer
// recursively, and a goroutine whose stack passes Go's bound (1 GB) kills
// the process: a walk takes about 250 bytes of stack a level, so some 4
// million levels, 28 MB of <a> (or 8 MB of [), are enough, and an answer
// may be 256 MB. 10,000 is what Go's encoding/json and encoding/xml allow
// when unmarshaling; an ASMX answer nests a few levels (a DataSet with its
// schema about ten), and 10,000 levels take a few MB of stack.
const MaxDepth = 10_000
