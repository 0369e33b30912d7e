/**
 * Structural types for @simplewebauthn/browser 14's `startRegistration({ optionsJSON })`
 * and `startAuthentication({ optionsJSON })`: the subset this project sends and reads.
 * Every binary field, in and out, is base64url without padding. Declared here so the
 * signing code type-checks with no DOM library and without the package; the app passes
 * the real functions, whose types are wider than these (input arrays are mutable so that
 * the library's functions are assignable to these types under strictFunctionTypes).
 */

type Base64URLString = string

export interface CreationOptionsJSON {
  readonly rp: { readonly id?: string; readonly name: string }
  readonly user: { readonly id: Base64URLString; readonly name: string; readonly displayName: string }
  readonly challenge: Base64URLString
  readonly pubKeyCredParams: { readonly type: 'public-key'; readonly alg: number }[]
  readonly timeout?: number
  readonly excludeCredentials?: { readonly id: Base64URLString; readonly type: 'public-key' }[]
  readonly authenticatorSelection?: {
    readonly residentKey?: 'discouraged' | 'preferred' | 'required'
    readonly requireResidentKey?: boolean
    readonly userVerification?: 'discouraged' | 'preferred' | 'required'
    readonly authenticatorAttachment?: 'platform' | 'cross-platform'
  }
  readonly attestation?: 'none' | 'indirect' | 'direct' | 'enterprise'
}

export interface RequestOptionsJSON {
  readonly challenge: Base64URLString
  readonly timeout?: number
  readonly rpId?: string
  readonly allowCredentials?: { readonly id: Base64URLString; readonly type: 'public-key' }[]
  readonly userVerification?: 'discouraged' | 'preferred' | 'required'
}

export interface RegistrationResponseJSONLike {
  readonly id: Base64URLString
  readonly rawId: Base64URLString
  readonly type: string
  readonly response: {
    readonly clientDataJSON: Base64URLString
    readonly attestationObject: Base64URLString
    readonly authenticatorData?: Base64URLString
    readonly transports?: readonly string[]
    readonly publicKeyAlgorithm?: number
    /** getPublicKey(): SubjectPublicKeyInfo DER (91 bytes for P-256), not COSE, not raw. */
    readonly publicKey?: Base64URLString
  }
}

export interface AuthenticationResponseJSONLike {
  readonly id: Base64URLString
  readonly rawId: Base64URLString
  readonly type: string
  readonly response: {
    readonly clientDataJSON: Base64URLString
    readonly authenticatorData: Base64URLString
    /** ASN.1 DER ECDSA signature. */
    readonly signature: Base64URLString
    readonly userHandle?: Base64URLString
  }
}

/** `startRegistration` of @simplewebauthn/browser 14 (structurally). */
export type StartRegistration = (options: { optionsJSON: CreationOptionsJSON }) => Promise<RegistrationResponseJSONLike>

/** `startAuthentication` of @simplewebauthn/browser 14 (structurally). */
export type StartAuthentication = (options: {
  optionsJSON: RequestOptionsJSON
}) => Promise<AuthenticationResponseJSONLike>
