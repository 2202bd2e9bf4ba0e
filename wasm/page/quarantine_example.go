package page

// quarantineExamples are the release rule's cases and two nights of the
// planted shop suite (core/quarantine/testdata/week), one click each.
//
// The nights are the links `flakegate quarantine check -site … -markdown`
// writes: the registry that `flakegate quarantine add -from
// nights/2026-11-20.xml -owner @shop-team -reason "flaky in the nightly
// runs" -today 2026-11-20 -days 30` made, checked on 2026-11-23 against
// that night's go test -json; and the same registry after `quarantine
// check -write` of the nights 2026-11-23 to 2026-11-26, checked on
// 2026-11-27 against that night's JUnit XML, where TestInventory was
// renamed and TestCart deleted. Each command runs in the nights' folder
// and names its report by its file name, which the answer's caveats
// repeat: a link holds no path of the machine it was written on.
var quarantineExamples = []example{
	{"Below 1% at 95%", "below=0.01&confidence=0.95"},
	{"Below 0.1% at 99%", "below=0.001&confidence=0.99"},
	{"11 quarantined tests and a night's reports", "registry=7JhLb-I6FMe_CjrrlOv3I6t7dTWLkWYxz1XVhRtcYjU4kW1KEeK7jxzKEDSlg5CmCIms8vr7HP9_5HDsFTxBiQsIdupiCksoV_BkQ3St7-8nG1OE8nbVn0EJ9tnMusaOq3b2T6zbbvzdxvS_qWoLBbQLbwOU8G9-cpOsmUEe2sQ8Gjw05nE5cn6UajvyblqnZjkKcx-zsrPeTqAEgoi4wfiGICjAPncu2PjrNtncrhrjZjnTzsSYVUwWkIIzTYRSoAKCSRZKNJaK7h0FNO0iZ4jGQlCptSSMCIU4wQXMu27zSAklheZcc6yQlgVUrX9wE-urflDNC5j0AYbJrvNEG2uizYnd26Zd5JcR_l2-LiC6_mo3A7SbQM4_m5JPqsYaDyVar4s_EQjpjAC4eB2ApgcBKIYkE9l-oRBRdABASyolpggTyZmm6jII1LZ6bOdXCmel8NE_WZ_asDwnBnUAg9g75BCDElQQwiXhQmM2pKCRwkgoJBlViOCLoPCpnTp_JXBGAp_Ncmb9WYsRO8BgYLrUiiNOOZECEUz2qg-nlEssOCcCY34Z1efL3M7P2Qdx8rrn6vDvXnJFmWKIEsoRonqIgCLFlUYca4YpoheB4Kvt2vO2Qgd60ezWrtoIojVTlBMqOM7t6851RRRHTEtFuUDsMlz_Zk2o6qvr7-x67brO-em1yr-r7T-6pjWT63L3byK46wPkUh6zbvPGbj9i9TqZ_-ap7jcrtnHIIBBB67virf2LoRCLI4Uh7ev0cbrtYvGEZD_MjGtOCbpbG-2J1VHiTUt_gnDbie5J2VHSTTt1QsyXJuAE5csf2Z6SHqfcFuMTkL5UlLeU6wIWJnjnpxHK23xZtbPOBHPf9N8ZLyCZMLVp-81WpoOSrn8GAAD__w&today=2026-11-23"},
	{"Four nights later: a renamed and a deleted test", "below=0.01&confidence=0.95&registry=7JjPb9s2FMf_FYKnFlAy_v6hXTYMO3QYhmxdT0UPrMxYWiRSoKg4RuD_faDixDIguZnQ1EMRnwxKT-89fvi-fOQ9vIU5zmCw66qLYQvze3hrQ1d5N4xH28UO5h_vh38wh_bONG1tLwvf_NCVvr3823bxF1OUFmbQb5wNMIc_pScX0ZoGpk-bLn0NXtfmZgsqB2JpgavWZay3IPSuS5atdXYFc0gQERcYXxAEM2jv2irY7mmYPAwXtamaFGlrui5ZMZnBGCpTdzAXKIPBRAtzdCkVPfplsPabFCG6FIJKrSVhRCjECc5g37YPj5RQUmjONccKaZnBwrvramVdMXxU8wyuBgfjYHcp0dqazqbAPtvab9LLCE-ZD0nnLIPXpqqHBHYZ7KrhjUNWgh6yUmhkVdTWOJijDBalLW6O503A3S77Eq4Qz0iLi2lams7SUgxJJhIroRBRdERLSyolpggTyZmm6lvgolO4JHspXMnK96_I_juyKU6JzSlObCmnd-7WuujD9pyg1AwocfSTY1BKUEEIl4QLjdmYk0YKI6GQZFQhgl-MEzmUFp5CRkdZMTSy2iPDk8jYl5H97teVe8X1tZWQn64wvLTCrsy2se6sQshmgI0ISa044pQTKRDB5Ej5OKVcYsE5ERhzdb7eQr_QZvVnb_tztoKcTANS8xUluaJMMUQJ5QhRPeZFkeJKI441wxTRb8FrUgGlOs2LLuX1l239ebvBmd49zc1B9ATRminKCRUcp3b_gEgRxRHTUlEuEKPfX__33ppQlOc8XuFpRGL-eMW5FIJQoiVVhB5poFQiFRNhTApK2bPOV_wlNBCP0iJPwPBXAFZWbVu59es-9T_r0D-0tTerM2IRaAoLHkHRNAkaZlJxqQ-3EvjlqmSKAEGnS2OewKchhLSndOmDT4b7i6T7aTA_97EcbpmmA9h9yk5dPI0NsXqe4eOZeoHTXxtT1UucPpw2Fnh87HsX-Hzoxxb43DcGRy7lsyz3-9WR5fN8PgnngnjfR1_cLJmhvSiccrnL4MYEV7l1B_OPaVGDp0UvL--aOgfD-gaxNBGYtrUmgMYHmwYc8K6wSU68s-C3D66K4LqqbQ4wAW9myyED8yt-7tl-Uc88HtYtMG4F1BDc2x-BNUW5j9cMQXbAgCFz8Gbth6TAReF7FzNgQLChdxnwAVzVZrsJSRlBG_w_togd2FSx9H0ElSvqfmWvHsbfueT6D9PYtzDNY-Gb1gTzuR5kKB0UTVjb-KhJhWlTe_VvAAAA__8&today=2026-11-27&v=2"},
}
