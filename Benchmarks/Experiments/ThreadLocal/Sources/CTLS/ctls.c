#include "ctls.h"
_Thread_local void *ctls_slot;
__attribute__((tls_model("initial-exec"))) _Thread_local void *ctls_slot_ie;
void *ctls_get_call(void) { return ctls_slot; }
