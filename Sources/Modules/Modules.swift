// Feature modules for the demo app live here.
