.irp v,e=
