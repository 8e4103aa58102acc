import AUPipeFormats
import AUPipeGraph

extension ParameterType where Value == BusSpec {
    /// A side input of `mix`: `PATH[,gain=DB][,pan=P][,offset=MS][,loop][,mute][,format=SPEC]`.
    public static var bus: Self {
        Self(.custom(BusParameterKind()), read: { if case .bus(let v) = $0 { v } else { nil } }, text: \.argument)
    }

    /// The far end of `aec`: `PATH[,format=SPEC]`.
    public static var reference: Self {
        Self(.custom(ReferenceParameterKind()), read: { if case .bus(let v) = $0 { v } else { nil } }, text: \.argument)
    }
}
