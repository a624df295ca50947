"""sklearn.datasets.load_diabetes: the diabetes data of scikit-learn 1.6.1 (sklearn/datasets/data/
diabetes_data_raw.csv.gz, diabetes_target.csv.gz and descr/diabetes.rst, BSD-3-Clause): their text, deflated and
in base85, read as numpy's loadtxt reads it, and scaled as sklearn.preprocessing.scale scales it."""
from __future__ import annotations

import base64
import warnings
import zlib

import numpy as np

from .bunch import Bunch

_DATA = (
    "c-nPbZE|KQult`>WCbZOABO#J>{_x7oSyeiRo8SUCxipWmSpja{VTss{_1Zn^{@Qap})KR+1Hl+tMktqd;Ko`>Fc-"
    "tO8uMm4?Mb>{ScnjV*hOXvvys-bN{Gd-"
    "10Xt8it+t%lz&23_De9*zqGB!;Zi9yYP)_zpS?U*MB>P9X^F!?A!Zi6g<ljeY#tItNm>M9dZViUB>S!Khp59V7?pAw*5P8sNad7^vCPk`a9Q8n>J"
    "m+*EW7>o%WY)KRE82?NQ}-"
    "$<O4Y(_Xt){5~1OmIBiplVjSyZ4Q0etJ~8h*LQK&y6wj{UhdAftG3_Wf5g6rH7mayuC9VLvqxJzYHPH*z1sQ_`|b9C&2V!osx5$Gd1t&@&bR#x&U"
    "f8WZMi#^q2am7XUA&eSM_H!UtWs=;j`1$dE2W_iFN3It#o^timixs@G0<F>_p#Zx@F45bZ5o5_}b>$7c3s0)jKYCP1{fF7`NLTYF%94j!7dVF|hi"
    ";O)-bAzG98j#K882Qr?gpe^UGY-8PAZfz?8?R?ebgB`_Wb_CVXc+M3p%wmc|%1mzUQdim^I7v;H#x6|0;g-I-|S~+hwdTYOGfj0aM*%C^e3p-"
    "5f2AVx;@AA9tTnt|bi;WRe*x2#W?`a#QVg|xdv6r!LHUlX*74ycg;s|js#P=RAG}UIq(6BF#2#EPtv5?Y#8eeVW)fVTV{3+Yyn;zP*uj17h5Ev*z"
    "eQ^i-Z|nCQ55{Cgq*nx%XA(;Re5;}NWNPnr7=Jn<-O|C1Q3p~HR-v5*>vL@6gP+-"
    "aBP_03p5mI5^=D`6oGjiOlf@i!+<_pQJ*HqUvKs=+RzW<>MkJDj@GY3cyvL$j$XJHrd<7w?Oi&Yt1>?^1YSQ8aAt0G&J+vyaThYJBMCudnScmm9)"
    "C0$kW{*5Qc&O!!%XqY$<EI$YRSs@%%=0tk2E*FFI({ayw4HaP%RhTrK_FGJRarh=d%!kLZP)hv8GN<H1H>%32hRQz=eB0ODw2Aicvi6$oP$=6pmD"
    "cii4_p+FqeS~z|1a~|75Y~5s-Ec1;5LmwP7`Oc-Ks)^C?%tRfuq$Q7Q!K)$*8lKJ|E1<p`F0tFKx8ogCQC>10;uXTD{3)}SUnFv1gyRx#gFGSKY+"
    "<4;58v+UbFBrPK`uu6|q_3Rr%-M)H`rbbFtjT0n07QzzLR-Bqh>y3q*0kQBR6HB4r%Az*qc1kQ$iIpg?SoLO|VdYV+XsRF085?Icdh)D4=M8bDHO"
    "`Qr#;<2H#0%^Vv^9U4=Ds-"
    "`SS9w2<!(k!x5cppH6ryYN^l?&fDYD`m_eBs>1PffcApbunR8nBK3RI!Q8|Tx8G%T|a7yhb>AV?zMf7%zTSsCN*_nI;W~gVw$muJ$je9JZ#k|2op"
    "kXs^ag0~g6;xw}r?$IhR=D%gR!)*M;ISD4#YY@ivs&gYLB$WUCsa#%>t-"
    "|iKME<%eDOy+%eB9oBFMPf@?^;!Sci3+rPyFn?TE3lzBS&m1JMg>kSA)J(j0F>wg0OQ914#HtdO1^=J@LdL%031QG4~nc4{l)ecDFMTiLWJb57fi"
    "_biUjK6K#ICpi$kXph+KceV{bB%dH_WdWA8ScJ;dhy`oJoaGkGVFh!rX!n`u#ZQ`cW;MBio+*7gHsnB7RuD@D8Bw;^nXnu<VEJtOfuAvBi+yCB@;"
    "UF@HuF>fpiVz-ww5|`A==#wEb#L4z8#uboH9X8Pk#^eMS*n&uu%b8O}y2ZQ|}~p>zLX+NI6m8?2Mj?xX9=k(~1DnnfSU5FK=R1#9&+2ZhwBPK@K2"
    "3>`WYI>x1*wZ{D#rUdZT{Q~Nw6PEVQy{O$K7Ye6NmW6up?Nb=a*k?oqm$kMWA00EszGLgU<6{mlF(3vb^Nhd9sn}aC(HHr+-"
    "?lM?pA)`vk2=>V$qY9AZND2@P%c6ZQudsud!RCh?(7AK>&5Rydh0VonUe@czuAKrKi>n=Z_NRA$uj*5f+G25ersBmE)0F_pig6h`w$_W8TEEx~NI"
    "lM`V)IdsZ2Eg9v#_t%LmrFM1tJ1RzDr`y#y<&FNt)!Br6lm7Ft05K_5IQt%R5d(@XbhPg9mxxa3p}K&hngvfII5Q<cmFfAiYc>&_{yc{_cc_n^O="
    "koB<E#?iWMdykp0HA(XWq;zm$!dB;})*pXS1vmGpM!GV}2_vR^Xo_tqeDCVewgE{YB5bPkKjjRB39KHgeG#!2$M~&)cK$&<zu=r1YU~${uy)e@6C"
    "4kkeCh6y|zhq$!qWamra3^td_6S_x)_FP0zXlMu7dOLJq)I@kMigt8R1?Nk6AYIk(wJ2<p@D|5VvNf*8SGXIJ)dDEJRp!s+JTb^5epZ>bLz@dEC^"
    "z&F6&bZxg8bHGI}K01x{QY-|b)~u@oLU#ZK`-"
    "jDflU!tH4%_u0S%Jj4V(VGyYaCh}+{1JGvmST@1S^?=}jivJ~rYGFA%OXew>j+*CNIyo*1y?DiFm%>sp`j=i*U{pqM0l;8^LsqYs5&|igSr`(d`>"
    "Rc2Ij(L;<S#FsJpO+b^a7P=#4Zn{2t2$?Y+du<u@e#0v{sE$%lBgn9zgQBcRptsi;3M4J0jc@paHB(KK7nw%SaHI0{FE|*Ny4ATnWS<MMdrjfIT9"
    "l5L;uu_cYtI8orP1u!Zvy=kc?#iAM@DqHB<-"
    "Ax~&jt$BbgK^ntMk6tonAvGl7Yn8Nj#K4%wrxYwJTog=3(rKU)Fem{r!XecIe1_2?mkL_aA|#$zI3CbPURhI7uf{<rC4+MWKfGDRrI?gVW@hb_Vr"
    "<IeV(|i!OUMz2H1)wj;4U9A5qc&PtT^%9hapyG*nWXs@GYSH5#V5A#`dzUpyuLud8IObh_Ndc3AjUjCaKU((#4Nt;I(n#(O{~+7Pjt6gi<a{g34%"
    "|z_ro>c*#*M*)5DZZ~2(Oi@IE0aDA>OqH-eoprmc(9r9-kdz4+50pz9YiJV9EqQ9Mu)a~a(oO4B4nkW-epdS%FC1Pd<sPYw%DDGm-GPCR`x{Q^N<"
    "Yl!+ERU%~ibZfz@^UecAzA)`!y0^}p6n*9UJs*8CC%W(a?;fUzi&S&^OLwK^^{N_sfW8H6WOJCs8#&g%j2CnzJij4CNo_7q}m{d_E`uMEi!3FDQ5"
    "v=<UUIV?PSF!TcTi=OPtca=yvzDxV)ZKsP(&kGrJ2zhb@PGg92SnzABo^U+r0-9|jE4Q+?5v<3R2Os{v0U)w(}R90Vt4WO9VmWxSBqi-"
    "$RlirmJtzhjpXC>4oY%NKn>PE#)+8fCP&yt};E%m?Www?^iU1UpGQ{wpgQ31)t!0=Z8}cow|WWR<p`|M)Ag<1N@-Bzy)|thP?#b8W0=E-"
    "GQR{&aPwZ6|Pixhu5kkqF0Ow|dI$9yOkpo6$1h*xd6SSs8ndb(gmjL#7Mu@=*9tX<Df1kB~tj+aj-"
    "RPcJPh3H6i#uF|e}8B}n`rpsM#;5|a`2Vf9T@8ss#94~0tNGF-"
    "MtZJLAtNl^4xo}8NTJms5IvQRxg4|HLJCeHmv+IzSj4Qa(*!~C<P}@L(yWANYJhy3##v0YfQGNS?BTT-LW9$fK3f-"
    "q|k%iT(F!R>DM*xZfq@9_$*@-"
    "60k$%NHcAG3CQL1QiHwDYQiHdITq$`q9mB{)ij?c*JyUrPNOt+14V?E8ky1!WoSck+v8X`w}ElC>mX3^EA2a@{xNksD$?}*I1CzP)6D06-"
    "};+f$uEw8N6{&aO{?aq!Hwu{t8oiw;U8tEArs_(`(a@OF7ocaUSW{gZ8zHn{h{X~K`IB;-"
    "kCc*d)F!C14PGk*X!{@9!_~|2HIX~54aY)eoCS@CnQsXPztjNy}JoHrek)S9baA(pMufp7{kb^=#e|b7J-"
    "4$h354bmi!3@;)Ke~OxG39L6qff3c&tjzn?5uvGC3Aip>GHO1XYn?}j5fnQbPu_LI!xorqFZD+t3e<RIddd*p(4e^^72zaA}}IJSvT5{od|WknOy"
    "f^E^I3`%8*G{s@n&!V=1g4ftHCcMGvYDAk)$O82g_#*^ITA)Rt@Fb(K7$o&X3VS9Ani<-d8e_OHqxm~$M8I)mjHQrdtVz5c^cH*ikql+kJ!-"
    "tcZ0#5LVaKr+3qwk%DH)m?(w1#{VzvPno?$%rh1d5#~LGnZk*892w*q2?h%^pnfZCnkiFU-EQGLCEn=zq*($NnO;%Mu<Gwu&p`+%)T494OQ(D&>J"
    "lb5BJ8S7b_O32~s?^qNk7;Dt{xh_)wOHbwnS%W`(A*B!Dp<kNYaz(N$}q$M0<9utl0OPvG<kHC#_GKUyPFR_O5$#Zpl|+a;698Y$#8#KtWD0Jva6"
    ";xKY#cBe|!#vOPOj~A~S6etb}am+ct(x+;iP6{EVGYwOgMFkEeZGzTY;h#(?Jq08y%j`!gUvQ-"
    "q(!sG>W1C+BgFqp3*GBYZ`>WEqys&<>CQJ77EI7{!8aZypbTzt1@!x+ENZDf^NdGyb&{l2S?FsWVap&d_tvB4be-"
    "x*RSN`m6v2lSozEsch+F%ED`(CevzE}!AcA2{N?!AEk;4>$&kLaaW+3c}@Bj88Ya@sK(36b0>3!4!kw74CkAAuG0RBp_%M*%t#+%V&l(0;tlgcKI"
    "_M+1GVr0StheY_BD8)O5oS5Fq2yNB5|hSC1^_92FbyI@5c1pRUOSib{X#CcntFmFX?l&xp7G`ZRWO5=1cTa%d0fRXJL0J+iG&)A%>FU4Z_d3n}cm"
    "*oJL&h2ZFr%r&-"
    "+UY;X*y!~!>@~q=^uz{#>_bQtUxiVq`vFYr0=jZ5>ux)eti`+o6*(>1LETU;Hn!A<7LJY(yl>^F(}RbieuQ2t2wk$z7Cdr<52^Rh1fVO{(<+}~TO"
    "eE<|8}1DX?I5ZAmqIAMvg<`?W|DtU-sQ$3Za3d)m!PB8z&@KO3nAG;R3rVNCty*lom}WApTJOyHiuFqdi@NZuYE6swtuq(m(Z!Sjpc_9Hd0EMj|O"
    "c-7SiW-7yM5k-F}H<T-"
    "L3Ci;hvAR4<Ael{Bu;FZQ|5{dpKlzw__9Y~4nX9cB?N;8m%cNrAu{dDrcl^_x{u00T*=x0eZHTYC<(?E|lW<;a{mfJyQnK(9`!eySU20nI+h>#G+"
    "Dba=Lq-2%=(ITW6{gT0jTGOM};5Tb`ae7CZNVD5W=(xkHL%lhg!0;N;1N3+^bc#zjp$n(<HrVt_^*_@5oaOn?Umz99mdSRd%kXK7Fb{xPT-"
    "k6QfuY@%Tq6+)1*qa-C6VY1)v3JPBDfP2zLv)z1lJMl=E0ms_1V{JAt?9AFQbLm=*paY6j-"
    "aC&Z3|1(88Y6MT^ZW0UNN*mI@F9*hmu1zyT{2B_%!$X>A=(5cT1wG_ZFu_wiJ$*hawu)5An%J$POh7iD^gCnaG3vT5tNYQeH<orexl4fI?Hrnjm0"
    "T=ebK+aVNd$w+CP{SFlDhi?*%u-Q@417{0HM&#Xb$*}0O9PL2~Q)@Qq9jF3B5xYE-"
    "E&{VeSs|MFtThWO8*%+QbBq#o_9a{(Dyhu4d!>DIlhe3x#q@fb!(ik^zPO0e<nEF4Dq*6Wfr;e$rv+yDQA^q}mblc?b1_{0l9?Vmaw55oVNC)~i)"
    "$D5pQN4`Z4aAtnRc_k)Z-lcDVdc9tmJ$nq;1Q*j(YZm4lY0s=uX@#NsC*ll!u<SOY8}%&~mn(g2+f|vi`^SIaV4L!q=64-"
    "8N72I~`d27+&0L0)?u!%h%`lA37$b$?mGljC26@FWJC;I30L?v}#%uLFjFhDrWtMdM$T{u&Wzd6*U2BRr6x(DWP50%m_~N#S6#^iSR+8aym5<3Kb"
    "<K<gcfV;QHYRc&mSM@X3l8Z2M~q16Y)-"
    "FMbXw(6k54jC|Nq&D<&cc%>u1ZAXCeleNn79`Fe3YCUoTPuxGwMi703Q)K=YJ3<Y4WHj|#i+I9APD!V$EK0_h!mUP-"
    "p*=`~i#pF9Ot{k_qdeBTaR5;9t>%0w_dkr0z-}K3QKMs|<sTz+w!%gb=k-"
    "^QP$bb^dUSBAE)XVAr|1zs9#c2ST}9FniiBB)rhsEHr7d?{FDR95Xt_Z`M;<D=;bR8REeA`rv!t;mcvr7(=V<MF%|X|3evBZiVJR$rel;A&%lBcW"
    "jG_`1c$O^P^0?E=>uD*uyG&W*?gM+6cs4|z^=Ww4B+UJqd$798E5nF`j)O=?R$Kpc8N!Fz99z0YF6Hkh8ulbBm0&yTh*}g|DXovE5v6uATuQ0oT^"
    "i}O)p{K>mUZvl48K7!JPET<_Hc?M!G;WPB+WJLaTJ}Fc3YXRUKT>eidzYOH{)<FTD2c`;%cA-94^PRsJu+FUZKd%m>LC@^=77vY-cMhycDf^`~*M"
    "Cu8&3k)a>KDS2NZzN7TH{LKyMQB?ROy?9*$7^>Y|JL#xk+d$^*ob$wkgWI2wRo*b#)6v3n>$1Yg9(}+slcV&yAq4-+Rvx$-"
    "{I1LxlYIr2ZZHsiv@*mv1=IJi2oE3l@{T+{7<5I#3L!ewoX$!&l+=q$Ygl0P8U7u3#{>=AAfm;tQBOD3Gm3o`Jq6%xDF_~kB3vtfs0?1NNH(cGvn"
    "<Fvdd90B^YUCA{z0p?lMvPo{FT@YxlibdI3YuZ5kxG#39Vi*R1(C319NU<BYn%)sj*E8^`<ur}c##-~Cy#anv}29Ab{Bh-XD4|iyX1tzZI;fzrzL"
    "gDe9eUFqB}yA;`eKtqGzd|wuWX8*9{`;I>;=tW?K%o!vYz%JZxWEiZ@YOHhZ@<{D0am?Q}0f4QBnC@5rq8V=oE<Y;4pm9QWBhh(cy)xI33z5H@=F"
    "N9f4KVWaOQF|;9hO0Am_xU#}*n1<MHDAAV+Gk|!5jCHPuBl!;|i9b8H9<Xzz4?A04&419-ZM3}xLH-C;jct2}J`*)8`HKE;0-"
    "R=KvPosK7c7A5u3mJEza3uGqC3Lg&&5nLZ;CxtCzDINI<242nuW4I3S#m4+vxt(!(B=`TW@OuQyxcy?jis32Ew>O*hi-uGt$YvU=w`|@2uV2Lv3e"
    "-UQN8tabY?6*jn>WLF&2l>CM(?<hIK$WU}*EqKCknPvw+7wv?WGTEyKu@4CpbE~9g}-"
    "uxG}7xk&63)YYBcFpEvd1UueqtV%VUip;aEwI2%D=bfxhI&}%*wCq`6Gztkc0CwD5*OCmx#_aqb+PUx%BTdYAs6v(!C@;5wy_^$b`rSi71bpcPfW"
    "y);~&YfA5NVeKH~HGkLQAhV9?0!h_~m%1k(ByQyCN4A0}{;d;67%=4p5oWqY>nbLXceu^%%nov%vVPje)DMM9lFyNu&G8+q^3Eq47#C^J1r0Sra="
    "rC05k7nalT{%Vf2>ie=KK+aa@KGx`OI`7f=DYr|_Hi{&g&+6G<gNV%28tJdgAv7GA7-"
    "gjGJL+;+nV)*k^@ZI?oTh8ibYj8&xsb<}WEw4S79!k}+l_<<HnR;76oPrQa{SiB=GhR3uu-Z8@0`tO<I)DZk2mrk-"
    ")=Vfx~8LLm!toVbk#?op|yrfxFPG65NDAjXxH!0orR_S9Ok;t4U5_Qs&{x2?U&~jo$Myf+w9yug^>3DnyFZ>T3T(hTeKsIK5Q>Kl=a9sdhUhMGBW"
    "RFq_o*<_>Mh$j-3B`uU((pBx$`Om37g0P-W{LVK()i7ZCd~qObSX=*k}A|MRMK#Qirpj(Zp^DQ~{K7LXYayW?jk)Tbf5jkGl6-"
    "N}%bi6lE>$=h>8<NCG~Q(fLJS#f8g)jXo|pN+DpQ~KI#c$D_Jq^n8oqBS<s!M+0j)I-|oP1J0gysq?y`@AW-M-"
    "y$vCk~t(266ISfeV3qUr$xb7U*MPUo)UAg}tQh#E{SJFTa0WBaQM?4n|%SD|vL^JH>LG9W_!76v4{2$TJ0(JQM1ib{iVtm8wX0lS`Lu+3tGW<1LO"
    "OwSE_!+U-67Vd@O5%bmOJK}lWh{XB(qGRbYiR@R-cDa&=-ZaqhE-Chij{PADaaSTc$?&Y9XX`Vm^(rY{1yn5(LYP%pqC8Yb?SJg#qUZVQkPbiq-u"
    "YR`UsC6rAj}tP~7bf$UH$fkAo1~;;ZRa-6tW$3bD<c>+B3uV83d*BZyKPRQQwlp<tU`-"
    "B7{_u8Ps1EH+MQb;BtYZJYvu*f!^UZn!jRvxdH(d={EAd@*y&z4Z+bvfBb<Hi9;o)|#`SB$o_VROedVt??Y(q|uezmiojHPp<7sPh5_ZDl%*pxWg"
    "M+DG`WQBTPl4+$#a>R5j>C1rW6lmfFXwY5ysZ>BYCpZzy-Vk1rla`8O}vI-*ZXegu2?(QSx07iT{qatMDQ^bTaPZh(rUA*^p+Q5c(-"
    "cAmF0DFT1h{_<NZu;P}1R<fDf%p`I_74nnk0#rPan0E6m+B<=M|g^BSg=>w2IYcV$;~zOFI}uzr)}8sQ4=*PGBh0OR@~X;oHJ7Rdj)0^z74$WX?m"
    "U%G5@-s;y-vAVmdD@=hN?^FCf-oKjKSaIu!taN*WXt4cyZiUZ&8oPO81fQ#rNn41&S3(`FsYc#r2ro2*dykWOtz8ywL|o<EJzd#}^A5-"
    "7s>FY2@VfoJm98}QGUEuoSE)zP+J21Hey^x~Q5{|H*YP{=g(VFp^<)kI<eC|rK;1M7E{<QdOR^X{aP!<3XmQ;I#lX1~ooV9|_y1{<m$*65;@%={6"
    "q@wMm%q;2#ZK$ly>+WAZY4yXra#OJ))k2IDl4RNJ#M7_`6L0SR#e>6C!;5mz1Mk5boZNIUCK^c)35&~J{(}42GhA@6rVdFFG3@f#-"
    "(C)9eo}la|US}w^u_0!`h)H$N{<Z08hyeRnW&snzthL^yxJ(qP^W%HcK?Fd`eO;aHHN*g?*Tfrn{zvqJby@0UtZt-ovk|@uM9WfCvAF6PfpGKcCQ"
    "2sm^D1U`h5Cc|BLT+W&ugaKog1JzX?Y@x-"
    "Nx@bRPcc|MP)WC`o1Ku2SUpXH&Ufjtfy?<@8<3HfI^)o|q1dnvC5V2hG~>LG(h{QKz*`LQd~;@bCW{}{hB&Cl%a`<+9{k7W2RVIQg3uJ-vnk@w~t"
    "6<dh}yU!;`X!Uo~aW5$G6NK_^5WCs#h2eFv_Wjrm7xh~Jm7aIHC_~WQ{wy#N8#_ZKAKu=io)SLB`1lcC!T0kWHZ;ci9;cFyd!I=mcv{G?v&e`2b4"
    "`vXhi#92<taKSEOGoF?Ood="
)
_TARGET = (
    "c-obkOK$Bj3`6JL$^!!HXITsC{<qMKA94(^QzLaEQ4~d8d&<^-"
    "f4~2h|MXMq<G_CG$?qrpS^M+Ao~X}*d7AEs^ZCSnf}XJT`9#oxJ<H&Zp*wouU!8&jJ8;kj2b+SJsRnUV5YP7$Nnegn_>=VICkZ7^DCy6G!$=H5;t"
    "9CJzcX0$<w0ma6!y)p3t#TfE;#572ju{Ug_ke*@}lps?}K@qz)%!jtlFXCOqXeia8(ptFAWTD5R=eOm-"
    "~S`oB)UA+!QM~zzian;9KE$G~cnQ25ZSghF|{uR>^z?vAWQbnMO;=LFCJqR_E_qQFJpPwUDUdayG)1Dh=vF;RzYUAVNNda{j_6HI&RZ;Os`P+cmU"
    "1i3z0F!z}8gG62-UXrBXbRRo_9Q;Y25PdJpCiG++4{t6aqsnb-"
    "0hx*4*YN_KKQhhxtGc4ppVurIIx{0_#kxDhlos*=qQLHwFy$M%^WkAXjvAcpUcdZ*Zg*~3wDoS9QcxN2KE=*pViL9wOYqTbew1o8fK7k=Q5O!?z<"
    "Emf*0(c7tRX8zqijC#Hyfo?Tlyf79UdAO8S+og0{@uJT<!mHzlH_1hbe)2TqrQ>*@gfl`s<mn2(!B6;;H%9{9Y=E}aOS+kDq54AC<mLn^SDMb!_l"
    "=3`C#@T%HXMJwDI*KAd9#iTj~%kIr$9TYTL#;mN;!UPj^EoSwsLK`&ZbVH#Pbs`GFy^)M~JK{y@?%am>K5zZpDgq85?NUTX7lQm-Y-kKtC7<fM86"
    "y<*2<$BVkbc5OB=DozwE$%#6|)Gi_sU4zS11cE+TQ$zo_aC^ySe+4`ND8Ws`A(AOV;)TK&y%m<4;d+2ln*<;9WOyV?%?rP@32)6wbrKVs%^K8+up"
    "YSRE41!$KHs$S!nX>-"
    "F3y8Rttdhp``)S@NbM3=LP0JLw$#HRQI{5n4{*U_qPRQU)w)!}bcjXK9H`K`S~93{P(&qzI~KHe&eBZ4%ibVc+Z$X|2Ckj(I|c_uLVFN1q*x#C0l"
    "t+y>PKq|0GId9865OQDeTZ#P<Ww{67(a4VI^a!S>8@f*crR%ky)tzZj5$tIJGIeY9Q56q~4~9(JWSMUd8>xO&c15wo4aN_Rx;SX&Hvm#i3z|joz8"
    "5oglhf6T)bi-gd%N21#UzE~lGjdE-"
    "x2l5yqY+R1o>bx1~ysK_qEC^~mWG734dWiS~1*a$zcLtD7z1&K%PwSh(>>GlvoeOUueXe4uSAQOj%(WVJ!?Soo$o7UA(m)zD)t&RXV@Ny8*(sPY>"
    "Z+5h4`wt`aiZ&IxAHyR6PQqxCcW4m3n6j8C6f7vCR6@qtpeVY3W0X3F"
)
FEATURE_NAMES = ["age", "sex", "bmi", "bp", "s1", "s2", "s3", "s4", "s5", "s6"]
DESCR = "\n".join([
    '.. _diabetes_dataset:',
    '',
    'Diabetes dataset',
    '----------------',
    '',
    'Ten baseline variables, age, sex, body mass index, average blood',
    'pressure, and six blood serum measurements were obtained for each of n =',
    '442 diabetes patients, as well as the response of interest, a',
    'quantitative measure of disease progression one year after baseline.',
    '',
    '**Data Set Characteristics:**',
    '',
    ':Number of Instances: 442',
    '',
    ':Number of Attributes: First 10 columns are numeric predictive values',
    '',
    ':Target: Column 11 is a quantitative measure of disease progression one year after baseline',
    '',
    ':Attribute Information:',
    '    - age     age in years',
    '    - sex',
    '    - bmi     body mass index',
    '    - bp      average blood pressure',
    '    - s1      tc, total serum cholesterol',
    '    - s2      ldl, low-density lipoproteins',
    '    - s3      hdl, high-density lipoproteins',
    '    - s4      tch, total cholesterol / HDL',
    '    - s5      ltg, possibly log of serum triglycerides level',
    '    - s6      glu, blood sugar level',
    '',
    'Note: Each of these 10 feature variables have been mean centered and scaled by the standard deviatio'
    'n times the square root of `n_samples` (i.e. the sum of squares of each column totals 1).',
    '',
    'Source URL:',
    'https://www4.stat.ncsu.edu/~boos/var.select/diabetes.html',
    '',
    'For more information see:',
    'Bradley Efron, Trevor Hastie, Iain Johnstone and Robert Tibshirani (2004) "Least Angle Regression," '
    'Annals of Statistics (with discussion), 407-499.',
    '(https://web.stanford.edu/~hastie/Papers/LARS/LeastAngle_2002.pdf)',
    '',
])


def _table(packed):
    text = zlib.decompress(base64.b85decode(packed)).decode()
    return np.array([[float(value) for value in line.split()] for line in text.splitlines() if line.strip()])


def _centred_warning(what, cause):
    warnings.warn(f"Numerical issues were encountered when {what} the data and might not be solved. {cause}",
                  stacklevel=3)


def scale(X):
    """sklearn.preprocessing.scale(X) along axis 0, in place: centred, divided by its (population) std."""
    mean, std = np.nanmean(X, 0), np.nanstd(X, 0)
    X -= mean
    mean_1 = np.nanmean(X, axis=0)
    if not np.allclose(mean_1, 0):
        _centred_warning("centering", "Dataset may contain too large values. You may need to prescale your "
                                      "features.")
        X -= mean_1
    std[std < 10 * np.finfo(std.dtype).eps] = 1.0
    X /= std
    mean_2 = np.nanmean(X, axis=0)
    if not np.allclose(mean_2, 0):
        _centred_warning("scaling", "The standard deviation of the data is probably very close to 0. ")
        X -= mean_2
    return X


def load_diabetes(*, return_X_y=False, as_frame=False, scaled=True):
    if as_frame:
        raise ValueError("load_diabetes(as_frame=True) makes a pandas DataFrame, which the explorer does not have: "
                         "leave as_frame=False")
    data, target = _table(_DATA), _table(_TARGET).ravel()
    if scaled:
        data = scale(data)
        data /= data.shape[0] ** 0.5
    if return_X_y:
        return data, target
    return Bunch(data=data, target=target, frame=None, DESCR=DESCR, feature_names=list(FEATURE_NAMES),
                 data_filename="diabetes_data_raw.csv.gz", target_filename="diabetes_target.csv.gz",
                 data_module="sklearn.datasets.data")
